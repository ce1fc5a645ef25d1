/* The SQL functions the oracle's corpus calls, so that user-defined functions (deterministic and
 * not) can be compared across engines: every engine under test registers the same ones.
 *
 *   jbench_seq()        1, 2, 3, ... per connection; not deterministic, so a cache that reuses
 *                       its result is wrong, and the counter shows how often it was called
 *   jbench_twice(x)     x + x for a number, NULL for NULL, an error otherwise; deterministic
 *   jbench_fail(text)   always fails with `text` as its message; deterministic
 *
 * One source, built two ways: linked into jbench::oracle (jbench_oracle_register_functions,
 * called by SqliteTarget), and with JBENCH_SQLITE_LOADABLE as a loadable extension that the
 * sqlite3 shell loads with `.load <file> jbench_oracle_functions_init` (docs/oracle-protocol.md).
 */
#ifdef JBENCH_SQLITE_LOADABLE
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#else
#include <sqlite3.h>
#endif

#include <stdlib.h>

#include "oracle_functions.h"

static void seq_fn(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  (void)argc;
  (void)argv;
  sqlite3_int64* counter = (sqlite3_int64*)sqlite3_user_data(ctx);
  sqlite3_result_int64(ctx, ++*counter);
}

static void twice_fn(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  (void)argc;
  switch (sqlite3_value_numeric_type(argv[0])) {
    case SQLITE_NULL:
      sqlite3_result_null(ctx);
      return;
    case SQLITE_INTEGER: {
      sqlite3_int64 v = sqlite3_value_int64(argv[0]);
      sqlite3_int64 out;
      if (__builtin_add_overflow(v, v, &out)) {
        sqlite3_result_error(ctx, "jbench_twice: integer overflow", -1);
        return;
      }
      sqlite3_result_int64(ctx, out);
      return;
    }
    case SQLITE_FLOAT:
      sqlite3_result_double(ctx, 2 * sqlite3_value_double(argv[0]));
      return;
    default:
      sqlite3_result_error(ctx, "jbench_twice: not a number", -1);
  }
}

static void fail_fn(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  (void)argc;
  const unsigned char* text = sqlite3_value_text(argv[0]);
  sqlite3_result_error(ctx, text ? (const char*)text : "jbench_fail", -1);
}

int jbench_oracle_register_functions(sqlite3* db) {
  /* The counter lives as long as the function's registration: freed by SQLite with it. */
  sqlite3_int64* counter = (sqlite3_int64*)sqlite3_malloc64(sizeof(sqlite3_int64));
  if (counter == NULL) return SQLITE_NOMEM;
  *counter = 0;
  int rc = sqlite3_create_function_v2(db, "jbench_seq", 0, SQLITE_UTF8, counter, seq_fn, NULL, NULL,
                                      sqlite3_free);
  if (rc != SQLITE_OK) return rc;
  rc = sqlite3_create_function_v2(db, "jbench_twice", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                  twice_fn, NULL, NULL, NULL);
  if (rc != SQLITE_OK) return rc;
  return sqlite3_create_function_v2(db, "jbench_fail", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                    fail_fn, NULL, NULL, NULL);
}

#ifdef JBENCH_SQLITE_LOADABLE
int jbench_oracle_functions_init(sqlite3* db, char** error, const sqlite3_api_routines* api) {
  (void)error;
  SQLITE_EXTENSION_INIT2(api);
  return jbench_oracle_register_functions(db);
}
#endif
