#include "jbench/oracle/ledger_database.h"

#include <sys/stat.h>

#include "sqlite_db.h"

namespace jbench::oracle {

namespace {

// WITHOUT ROWID on txns: the primary key (writer, seq) is the table's order, which the verifier
// reads in, so its scan is a merge with the ledgers rather than a sort.
constexpr std::string_view kSchema = R"sql(
CREATE TABLE txns(writer INTEGER NOT NULL, seq INTEGER NOT NULL, incarnation INTEGER NOT NULL,
                  body TEXT NOT NULL, checksum TEXT NOT NULL,
                  PRIMARY KEY(writer, seq)) WITHOUT ROWID;
CREATE TABLE kv(key INTEGER PRIMARY KEY, value INTEGER NOT NULL, writer INTEGER NOT NULL,
                seq INTEGER NOT NULL);
CREATE TABLE accounts(id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
CREATE TABLE rolled_back_probe(writer INTEGER NOT NULL, seq INTEGER NOT NULL,
                               incarnation INTEGER NOT NULL, what TEXT NOT NULL);
)sql";

}  // namespace

Status create_ledger_database(const std::string& db_path, const LedgerLayout& layout,
                              JournalMode journal) {
  struct stat st {};
  if (::stat(db_path.c_str(), &st) == 0) {
    return Error{"ledger database '" + db_path + "' already exists; use an empty work directory", 0,
                 ErrorKind::input};
  }
  ledger_sql::Db db;
  if (auto s = db.open(db_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE); !s) return s;
  std::string error;
  const std::string mode =
      journal == JournalMode::wal ? "PRAGMA journal_mode=WAL" : "PRAGMA journal_mode=DELETE";
  if (db.exec(mode, &error) != SQLITE_OK || db.exec(kSchema, &error) != SQLITE_OK) {
    return Error{"cannot create the ledger schema in '" + db_path + "': " + error};
  }
  if (layout.variant == LedgerVariant::bank) {
    if (db.exec("BEGIN", &error) != SQLITE_OK) return Error{"cannot begin: " + error};
    ledger_sql::Stmt insert;
    if (insert.prepare(db, "INSERT INTO accounts(id, balance) VALUES(?1, ?2)") != SQLITE_OK) {
      return Error{"cannot prepare the accounts: " + db.message()};
    }
    for (std::size_t id = 0; id < layout.accounts; ++id) {
      insert.bind(1, static_cast<std::int64_t>(id));
      insert.bind(2, layout.initial_balance);
      if (insert.step() != SQLITE_DONE) return Error{"cannot insert an account: " + db.message()};
      insert.reset();
    }
    if (db.exec("COMMIT", &error) != SQLITE_OK) return Error{"cannot commit: " + error};
  }
  return {};
}

}  // namespace jbench::oracle
