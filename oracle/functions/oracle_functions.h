/* The oracle's SQL functions (oracle_functions.c): registers jbench_seq, jbench_twice and
 * jbench_fail on a connection. */
#ifndef JBENCH_ORACLE_FUNCTIONS_H
#define JBENCH_ORACLE_FUNCTIONS_H

#ifdef __cplusplus
extern "C" {
#endif

struct sqlite3;
/* SQLITE_OK, or the code of the registration that failed. */
int jbench_oracle_register_functions(struct sqlite3* db);

#ifdef __cplusplus
}
#endif

#endif
