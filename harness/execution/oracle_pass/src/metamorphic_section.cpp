// The single-engine checks: TLP and NoREC over generated predicates, on the target after a
// generated stream has filled its tables.
#include <ostream>

#include "jbench/oracle/generator.h"
#include "jbench/oracle/norec.h"
#include "jbench/oracle/tlp.h"
#include "sections.h"

namespace jbench::oracle_pass {

namespace {

constexpr std::size_t kMaxRecorded = 100;

nlohmann::json tlp_finding(const oracle::TlpOutcome& o) {
  return {{"verdict", oracle::to_string(o.verdict)},
          {"predicate", o.predicate},
          {"what", oracle::describe(o)}};
}

nlohmann::json norec_finding(const oracle::NorecOutcome& o) {
  return {{"verdict", oracle::to_string(o.verdict)}, {"what", oracle::describe(o)}};
}

}  // namespace

Status fill_tables(oracle::Target& target, std::uint64_t seed) {
  oracle::Corpus fill = oracle::generate_stream({seed, kFillStatements});
  for (const oracle::Record& r : fill.records) {
    oracle::ResultSet res = r.prepared.empty() ? target.run(r.sql, r.params)
                                               : target.run_prepared(r.prepared, r.sql, r.params);
    if (res.engine_failure) return Error{*res.engine_failure};
  }
  return {};
}

nlohmann::json metamorphic_section(std::uint64_t cases, std::uint64_t seed, const Engines& e,
                                   std::ostream* log) {
  auto started = e.target();
  if (!started) {
    return {{"status", kFailed}, {"what", "the target did not start: " + started.error().message}};
  }
  std::unique_ptr<oracle::Target> target = std::move(*started);
  // The tables the predicates read.
  if (const Status filled = fill_tables(*target, seed); !filled) {
    return {{"status", kFailed}, {"what", "the target did not answer: " + filled.error().message}};
  }
  std::size_t tlp_same = 0, norec_same = 0, tlp_bad = 0, norec_bad = 0;
  nlohmann::json findings = nlohmann::json::array();
  for (const oracle::TlpCase& c : oracle::generate_predicate_cases(seed, cases)) {
    oracle::TlpOutcome t = oracle::check_tlp(*target, c);
    if (t.verdict == oracle::TlpVerdict::same) {
      ++tlp_same;
    } else if (++tlp_bad <= kMaxRecorded) {
      findings.push_back({{"check", "tlp"}, {"outcome", tlp_finding(t)}});
    }
    oracle::NorecOutcome n = oracle::check_norec(*target, oracle::norec_case_of(c));
    if (n.verdict == oracle::NorecVerdict::same) {
      ++norec_same;
    } else if (++norec_bad <= kMaxRecorded) {
      findings.push_back({{"check", "norec"}, {"outcome", norec_finding(n)}});
    }
  }
  bool passed = tlp_bad == 0 && norec_bad == 0;
  if (log) {
    *log << "oracle: metamorphic: " << cases << " TLP and " << cases << " NoREC cases, "
         << (passed ? kPassed : kFailed) << "\n";
  }
  return {{"status", passed ? kPassed : kFailed},
          {"seed", std::to_string(seed)},
          {"cases", cases},
          {"tlp", {{"same", tlp_same}, {"differ_or_fail", tlp_bad}}},
          {"norec", {{"same", norec_same}, {"differ_or_fail", norec_bad}}},
          {"findings", std::move(findings)}};
}

}  // namespace jbench::oracle_pass
