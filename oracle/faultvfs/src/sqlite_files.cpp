#include "sqlite_files.h"

#include <sqlite3.h>

#include <cctype>
#include <filesystem>

namespace jbench::oracle::fault_detail {

namespace {

// A statement as findings quote it: the set's rows carry long texts that say nothing.
std::string shortened(const std::string& sql) {
  constexpr std::size_t kMax = 60;
  return sql.size() <= kMax ? sql : sql.substr(0, kMax) + "...";
}

// Runs one statement to completion; the extended result code, with the message in `message`.
int exec(sqlite3* db, const std::string& sql, std::string* message = nullptr) {
  char* err = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    rc = sqlite3_extended_errcode(db);
    if (message) *message = shortened(sql) + ": " + (err ? err : sqlite3_errstr(rc));
  }
  sqlite3_free(err);
  return rc;
}

// Every row of `sql` as "a|b|c\n" lines; an error is the code and message.
Result<std::string> rows_of(sqlite3* db, const char* sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) {
    return Error{std::string(sql) + ": " + sqlite3_errmsg(db)};
  }
  std::string out;
  int rc = SQLITE_OK;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
      out += (i ? "|" : "");
      out += text ? text : "NULL";
    }
    out += '\n';
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE) return Error{std::string(sql) + ": " + sqlite3_errmsg(db)};
  return out;
}

}  // namespace

SetRun run_transaction_set(const std::string& db_path, const char* vfs_name,
                           const std::string& synchronous, const TransactionSet& set,
                           std::vector<std::string>* states, FaultVfs* marks) {
  SetRun run;
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READWRITE, vfs_name);
  auto stop = [&](int code, std::string message) {
    run.first_error_code = code;
    run.first_error = std::move(message);
  };
  if (rc != SQLITE_OK) {
    stop(rc, "open: " + std::string(db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
  } else {
    sqlite3_extended_result_codes(db, 1);
    std::string message;
    if ((rc = exec(db, "PRAGMA synchronous=" + synchronous, &message)) != SQLITE_OK) {
      stop(rc, message);
    }
  }
  for (std::size_t i = 0; run.first_error_code == SQLITE_OK && i < set.transactions.size(); ++i) {
    std::string message;
    if ((rc = exec(db, "BEGIN", &message)) != SQLITE_OK) {
      stop(rc, message);
      break;
    }
    for (const std::string& sql : set.transactions[i].statements) {
      if ((rc = exec(db, sql, &message)) != SQLITE_OK) break;
    }
    if (rc != SQLITE_OK) {
      stop(rc, message);
      exec(db, "ROLLBACK");  // may fail too (or find no transaction): closing rolls back anyway
      break;
    }
    if (marks) marks->mark(FileEvent::Kind::commit_begin);
    if ((rc = exec(db, "COMMIT", &message)) != SQLITE_OK) {
      run.commit_in_doubt = true;
      stop(rc, message);
      break;
    }
    if (marks) marks->mark(FileEvent::Kind::commit_done);
    run.acknowledged = i + 1;
    if (states) {
      auto dump = rows_of(db, kDumpQuery);
      if (!dump) {
        stop(SQLITE_ERROR, dump.error().message);
        break;
      }
      states->push_back(*dump);
    }
  }
  sqlite3_close_v2(db);  // sqlite3_exec finalizes its statements, so this closes now
  return run;
}

RunObservation observe(const std::string& db_path) {
  RunObservation seen;
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
  if (rc != SQLITE_OK) {
    seen.reopened = false;
    seen.reopen_error = "open: " + std::string(db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close_v2(db);
    return seen;
  }
  // A database too damaged for integrity_check to finish is an integrity finding too. Ten
  // problems are enough to read; integrity_check(N) stops after N.
  auto integrity = rows_of(db, "PRAGMA integrity_check(10)");
  seen.integrity = integrity ? *integrity : integrity.error().message;
  if (!seen.integrity.empty() && seen.integrity.back() == '\n') seen.integrity.pop_back();
  if (seen.integrity == "ok") {
    auto dump = rows_of(db, kDumpQuery);
    if (dump) {
      seen.content = *dump;
    } else {
      seen.reopened = false;
      seen.reopen_error = dump.error().message;
    }
  }
  sqlite3_close_v2(db);
  return seen;
}

Status create_start_database(const std::string& db_path, const std::string& journal_mode,
                             const TransactionSet& set) {
  remove_database_files(db_path);
  sqlite3* db = nullptr;
  int rc =
      sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  std::string message;
  auto fail = [&](std::string what) {
    sqlite3_close_v2(db);
    return Error{"cannot create the starting database '" + db_path + "': " + what};
  };
  if (rc != SQLITE_OK) return fail(db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  auto mode = rows_of(db, ("PRAGMA journal_mode=" + journal_mode).c_str());
  if (!mode) return fail(mode.error().message);
  // SQLite answers with the mode it is in, lower case; anything else means it refused.
  std::string want = journal_mode;
  for (char& c : want) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (*mode != want + "\n") return fail("journal_mode " + journal_mode + " was refused: " + *mode);
  if (exec(db, "BEGIN", &message) != SQLITE_OK) return fail(message);
  for (const std::string& sql : set.setup) {
    if (exec(db, sql, &message) != SQLITE_OK) return fail(message);
  }
  if (exec(db, "COMMIT", &message) != SQLITE_OK) return fail(message);
  if (sqlite3_close(db) != SQLITE_OK) return fail(sqlite3_errmsg(db));
  return {};
}

std::optional<std::string> checked_synchronous(const std::string& value) {
  std::string upper = value;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const char* name : {"OFF", "NORMAL", "FULL", "EXTRA"}) {
    if (upper == name) return upper;
  }
  return std::nullopt;
}

void remove_database_files(const std::string& db_path) {
  std::error_code ignored;
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
    std::filesystem::remove(db_path + suffix, ignored);
  }
}

Status copy_file(const std::string& from, const std::string& to) {
  std::error_code ec;
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) return Error{"cannot copy '" + from + "' to '" + to + "': " + ec.message(), ec.value()};
  return {};
}

}  // namespace jbench::oracle::fault_detail
