#include "jbench/oracle/ledger_config.h"

namespace jbench::oracle {

std::string_view to_string(JournalMode mode) {
  return mode == JournalMode::wal ? "wal" : "rollback";
}

std::string_view to_string(LedgerVariant variant) {
  return variant == LedgerVariant::keyed ? "keyed" : "bank";
}

std::string_view to_string(BrokenWriter broken) {
  switch (broken) {
    case BrokenWriter::none:
      return "none";
    case BrokenWriter::ledger_before_commit:
      return "ledger_before_commit";
    case BrokenWriter::savepoint_leak:
      return "savepoint_leak";
  }
  return "none";
}

std::optional<JournalMode> journal_mode_from(std::string_view text) {
  if (text == "wal") return JournalMode::wal;
  if (text == "rollback") return JournalMode::rollback;
  return std::nullopt;
}

std::optional<LedgerVariant> ledger_variant_from(std::string_view text) {
  if (text == "keyed") return LedgerVariant::keyed;
  if (text == "bank") return LedgerVariant::bank;
  return std::nullopt;
}

std::optional<BrokenWriter> broken_writer_from(std::string_view text) {
  for (auto b :
       {BrokenWriter::none, BrokenWriter::ledger_before_commit, BrokenWriter::savepoint_leak}) {
    if (text == to_string(b)) return b;
  }
  return std::nullopt;
}

}  // namespace jbench::oracle
