// The multiprocess ledgers under SIGKILL storms (jbench::oracle_ledger) as a section: one storm
// per entry of the matrix's `ledgers:`, each in a directory of its own.
#include <algorithm>
#include <filesystem>
#include <ostream>

#include "jbench/oracle/ledger_storm.h"
#include "sections.h"

namespace jbench::oracle_pass {

namespace {

// The matrix writes names with '-', the ledger library with '_'.
std::string underscored(std::string s) {
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

}  // namespace

nlohmann::json ledger_section(const std::vector<OracleLedgerSpec>& specs, std::uint64_t seed,
                              const PassOptions& o) {
  nlohmann::json storms = nlohmann::json::array();
  bool passed = true;
  std::ostream discard(nullptr);  // a stream with no buffer writes nothing
  std::ostream& log = o.log ? *o.log : discard;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const OracleLedgerSpec& s = specs[i];
    oracle::LedgerConfig c;
    c.journal = *oracle::journal_mode_from(s.journal);
    c.variant = *oracle::ledger_variant_from(s.variant);
    c.broken = *oracle::broken_writer_from(underscored(s.broken));
    c.writers = s.writers;
    c.readers = s.readers;
    c.transactions_per_writer = s.transactions_per_writer;
    c.kills = s.kills;
    c.seed = seed + i;  // each storm its own seeded choices
    c.timeout_ms = s.timeout_ms;
    std::string dir =
        (std::filesystem::path(o.work_dir) / ("ledger-" + std::to_string(i))).string();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    nlohmann::json one;
    if (ec) {
      one = {{"status", kFailed}, {"what", "cannot make " + dir + ": " + ec.message()}};
    } else if (auto v = oracle::run_ledger_storm(c, dir, o.ledger_worker, log)) {
      one = v->to_json();
      one["status"] = v->passed() ? kPassed : kFailed;
    } else {
      one = {{"status", kFailed}, {"what", "the storm could not run: " + v.error().message}};
    }
    one["journal"] = s.journal;
    one["variant"] = s.variant;
    one["broken"] = s.broken;
    passed = passed && one["status"] == kPassed;
    if (o.log) {
      *o.log << "oracle: ledger storm " << i + 1 << "/" << specs.size() << " (" << s.journal << ", "
             << s.variant << ", " << s.kills << " kills): " << one["status"].get<std::string>()
             << "\n";
    }
    storms.push_back(std::move(one));
  }
  return {{"status", passed ? kPassed : kFailed}, {"storms", std::move(storms)}};
}

}  // namespace jbench::oracle_pass
