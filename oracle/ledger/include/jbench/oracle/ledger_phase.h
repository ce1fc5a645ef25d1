// Where a writer was when it died: one byte the writer keeps up to date in a small shared file
// mapping (<ledger>.phase) as it works. The byte survives the SIGKILL (the page belongs to the
// file, not the process), so after reaping the driver knows the kill point exactly, and the
// verdict can show that kills landed mid-transaction, in COMMIT and between COMMIT and the
// ledger append, not only between transactions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace jbench::oracle {

enum class WriterPhase : std::uint8_t {
  starting = 0,        // registered, not yet resumed
  between = 1,         // between transactions
  in_transaction = 2,  // after BEGIN, before COMMIT (statements, savepoints, rollbacks)
  committing = 3,      // COMMIT called, not returned
  ledgering = 4,       // COMMIT returned, ledger line not yet durable
  finished = 5,        // all transactions done
};

std::string_view to_string(WriterPhase phase);

// <ledger path>.phase
std::string phase_path_for(const std::string& ledger_path);

// The phase recorded in a phase file; empty when it is missing or holds no valid phase.
std::optional<WriterPhase> read_writer_phase(const std::string& phase_path);

}  // namespace jbench::oracle
