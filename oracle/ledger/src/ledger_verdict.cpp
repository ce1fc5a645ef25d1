#include "jbench/oracle/ledger_verdict.h"

namespace jbench::oracle {

void LedgerVerdict::add_finding(std::string finding) {
  if (findings.size() < kMaxFindings) {
    findings.push_back(std::move(finding));
  } else {
    ++findings_dropped;
  }
}

bool LedgerVerdict::passed() const {
  const bool storm_ok =
      !storm_ran || (!timed_out && worker_failures == 0 && writers_finished == writers);
  return integrity_check == "ok" && lost == 0 && visible_uncommitted == 0 &&
         rolled_back_visible == 0 && state_mismatches == 0 && checksum_mismatches == 0 &&
         ledger_errors == 0 && invariant_violations == 0 && storm_ok;
}

nlohmann::json LedgerVerdict::to_json() const {
  nlohmann::json incs = nlohmann::json::array();
  for (const auto& i : incarnations) {
    incs.push_back({{"role", i.role},
                    {"index", i.index},
                    {"incarnation", i.incarnation},
                    {"pid", i.pid},
                    // Ticks since boot and runtime ids are identities, not quantities: strings.
                    {"start_time_ticks", std::to_string(i.start_time_ticks)},
                    {"runtime_id", i.runtime_id},
                    {"ended", i.ended}});
  }
  return {
      {"schema", "jbench.oracle.ledger/1"},
      {"passed", passed()},
      {"journal", to_string(journal)},
      {"variant", to_string(variant)},
      {"broken_writer", to_string(broken)},
      {"seed", std::to_string(seed)},
      {"database",
       {{"integrity_check", integrity_check},
        {"committed", committed},
        {"ledgered", ledgered},
        {"lost", lost},
        {"visible_uncommitted", visible_uncommitted},
        {"unledgered_after_kill", unledgered_after_kill},
        {"rolled_back_visible", rolled_back_visible},
        {"state_mismatches", state_mismatches},
        {"checksum_mismatches", checksum_mismatches},
        {"ledger_errors", ledger_errors},
        {"torn_final_lines", torn_final_lines},
        {"balance_total", balance_total},
        {"expected_balance_total", expected_balance_total}}},
      {"paths",
       {{"aborted_attempts", aborted_attempts},
        {"savepoints_kept", savepoints_kept},
        {"savepoints_rolled_back", savepoints_rolled_back}}},
      {"storm",
       {{"ran", storm_ran},
        {"kills_requested", kills_requested},
        {"kills_done", kills_done},
        {"kill_points", kill_points},
        {"writers", writers},
        {"writers_finished", writers_finished},
        {"reader_snapshots", reader_snapshots},
        {"invariant_violations", invariant_violations},
        {"worker_failures", worker_failures},
        {"busy_retries", busy_retries},
        {"timed_out", timed_out},
        {"storm_ms", storm_ms},
        {"verify_ms", verify_ms}}},
      {"boot_id", boot_id},
      {"incarnations", incs},
      {"findings", findings},
      {"findings_dropped", findings_dropped},
  };
}

}  // namespace jbench::oracle
