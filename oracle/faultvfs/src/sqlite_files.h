// Small SQLite and file helpers of the fault loop: running the transaction set through a VFS,
// and reading a database back without the shim.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/fault_check.h"
#include "jbench/oracle/fault_vfs.h"
#include "transaction_set.h"

namespace jbench::oracle::fault_detail {

// How far one run of the set got. It stops at the first failed statement: after an I/O error
// SQLite may have rolled the transaction back on its own, and going on would commit a fragment.
struct SetRun {
  std::size_t acknowledged = 0;
  bool commit_in_doubt = false;  // the COMMIT of transaction acknowledged + 1 failed
  int first_error_code = 0;      // SQLITE_OK when every transaction committed
  std::string first_error;
};

// Opens `db_path` through `vfs_name` (nullptr: the default VFS), sets `synchronous`, runs every
// transaction, closes. With `states`, appends the dump after each acknowledged commit (more I/O:
// only for the reference run).
// With `marks`, each COMMIT is marked in its event record: commit_begin before it runs,
// commit_done when it returned SQLITE_OK.
SetRun run_transaction_set(const std::string& db_path, const char* vfs_name,
                           const std::string& synchronous, const TransactionSet& set,
                           std::vector<std::string>* states = nullptr, FaultVfs* marks = nullptr);

// Opens `db_path` with the default VFS (recovering a hot journal or WAL as any reader would),
// runs integrity_check and dumps the table.
RunObservation observe(const std::string& db_path);

// Creates the starting database: `journal_mode` ("WAL" or "DELETE"), the setup statements.
Status create_start_database(const std::string& db_path, const std::string& journal_mode,
                             const TransactionSet& set);

// `value` in capitals when it is one of SQLite's synchronous settings (OFF, NORMAL, FULL, EXTRA,
// in any case): it is spliced into a PRAGMA, so only those names are let through.
std::optional<std::string> checked_synchronous(const std::string& value);

// Removes a database and its journal, WAL and shared-memory files; absent ones are fine.
void remove_database_files(const std::string& db_path);
Status copy_file(const std::string& from, const std::string& to);

}  // namespace jbench::oracle::fault_detail
