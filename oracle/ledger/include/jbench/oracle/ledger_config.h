// What a ledger storm runs: how many writer and reader processes, which journal mode, which
// workload variant, how many SIGKILLs, and the seed that fixes every random choice.
//
//   LedgerConfig config;
//   config.journal = JournalMode::rollback;
//   config.kills = 60;
//   auto verdict = run_ledger_storm(config, "/tmp/storm", worker_path, std::cerr);
//
// The layout (the key ranges of the keyed variant, the accounts of the bank variant) is part of
// the config because the verifier must know the starting state it replays the ledgers from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace jbench::oracle {

enum class JournalMode { wal, rollback };  // rollback = journal_mode=DELETE
enum class LedgerVariant { keyed, bank };
// Writers that break the protocol on purpose, so a test can show the verifier catches them.
enum class BrokenWriter {
  none,
  ledger_before_commit,  // appends (and fsyncs) the ledger entry, pauses, then COMMITs
  savepoint_leak,        // RELEASEs a savepoint it was meant to ROLLBACK TO
};

std::string_view to_string(JournalMode mode);
std::string_view to_string(LedgerVariant variant);
std::string_view to_string(BrokenWriter broken);
std::optional<JournalMode> journal_mode_from(std::string_view text);
std::optional<LedgerVariant> ledger_variant_from(std::string_view text);
std::optional<BrokenWriter> broken_writer_from(std::string_view text);

// The starting state of the database, which the verifier replays the ledgers from.
struct LedgerLayout {
  LedgerVariant variant = LedgerVariant::keyed;
  std::size_t writers = 3;
  // keyed: writer w owns the keys [w * keys_per_writer, (w + 1) * keys_per_writer), so the
  // final value of a key is fixed by its owner's ledger alone, whatever the interleaving.
  std::size_t keys_per_writer = 32;
  // bank: accounts 0..accounts-1 shared by every writer, each starting at initial_balance;
  // transfers commute, so the final balances are fixed by the set of committed transfers.
  std::size_t accounts = 16;
  std::int64_t initial_balance = 1000;

  std::int64_t total_balance() const {
    return static_cast<std::int64_t>(accounts) * initial_balance;
  }
};

struct LedgerConfig {
  JournalMode journal = JournalMode::wal;
  LedgerVariant variant = LedgerVariant::keyed;
  std::size_t writers = 3, readers = 1;
  std::size_t transactions_per_writer = 200;
  std::size_t kills = 50;
  std::uint64_t seed = 1;
  BrokenWriter broken = BrokenWriter::none;
  std::uint32_t timeout_ms = 60000;  // the whole storm; every worker also stops by itself then
  // Kill j is armed when the ledgers have grown past a seeded threshold (spread over the first
  // three quarters of the run) and lands a seeded uniform time in [0, max_kill_gap_ms] later
  // (within 1 ms when the storm is behind its schedule).
  std::uint32_t max_kill_gap_ms = 10;
  std::size_t keys_per_writer = 32;
  std::size_t accounts = 16;
  std::int64_t initial_balance = 1000;

  LedgerLayout layout() const {
    return {variant, writers, keys_per_writer, accounts, initial_balance};
  }
};

}  // namespace jbench::oracle
