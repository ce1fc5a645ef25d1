#include "jbench/oracle_pass/oracle_pass.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>

#include "jbench/common/clock.h"
#include "jbench/oracle/normalize.h"
#include "sections.h"

namespace jbench::oracle_pass {

namespace {

nlohmann::json not_requested() { return {{"status", kNotRequested}}; }

// The engines the matrix names, each opened (a target that cannot be is refused before any check
// runs), and which capabilities the target declines.
Result<Engines> open_engines(const OracleMatrix& m, const std::string& base) {
  Engines engines;
  auto target = engine_factory(m.target, base);
  if (!target) return target.error();
  engines.target = *target;
  const auto waived = [&m](std::string_view what) {
    return std::find(m.waived.begin(), m.waived.end(), what) != m.waived.end();
  };
  engines.prepared_waived = waived("prepared");
  engines.column_names_waived = waived("column_names");
  engines.optimizations_waived = waived("optimizations");
  if (m.oracle) {
    auto oracle_engine = engine_factory(*m.oracle, base);
    if (!oracle_engine) return oracle_engine.error();
    engines.oracle = *oracle_engine;
  }
  return engines;
}

// The record's document around its sections: what ran, against what, for how long, and whether
// it passed — every requested section passed, and at least one was requested.
void describe_pass(const OracleMatrix& m, bool stopped, bool deadline_reached, double elapsed_s,
                   nlohmann::json sections, nlohmann::json& d) {
  bool passed = true;
  std::size_t ran = 0;
  for (const auto& [name, s] : sections.items()) {
    if (s["status"] == kNotRequested) continue;
    ++ran;
    passed = passed && s["status"] == kPassed;
  }
  d["interrupted"] = stopped;
  d["deadline_s"] = m.deadline_s ? nlohmann::json(*m.deadline_s) : nlohmann::json(nullptr);
  d["deadline_reached"] = deadline_reached;
  d["schema"] = "jbench.oracle";
  d["schema_version"] = 1;
  d["name"] = m.name;
  d["description"] = m.description;
  d["seed"] = std::to_string(m.seed);
  d["matrix_sha256"] = m.sha256;
  d["target"] = describe_engine(m.target);
  d["oracle"] = m.oracle ? nlohmann::json(describe_engine(*m.oracle)) : nlohmann::json(nullptr);
  d["finished_utc"] = utc_now("%Y-%m-%dT%H:%M:%SZ");
  d["elapsed_s"] = elapsed_s;
  // The comparison rules every query used unless its record says otherwise (docs/oracle.md).
  d["normalization"] = oracle::to_json(oracle::Normalization{});
  // Nothing checked is never a pass (the matrix loader refuses such a matrix already).
  d["passed"] = passed && ran > 0;
  d["sections"] = std::move(sections);
}

}  // namespace

Result<OracleRecord> run_oracle_pass(const OracleMatrix& m, const PassOptions& o) {
  const std::string dir = std::filesystem::path(m.file).parent_path().string();
  const std::string base = dir.empty() ? "." : dir;
  // Everything that can refuse the input is checked before any check runs.
  auto opened = open_engines(m, base);
  if (!opened) return opened.error();
  const Engines& engines = *opened;
  auto corpus = load_corpus(m, base);
  if (!corpus) return corpus.error();

  OracleRecord record;
  const auto started = std::chrono::steady_clock::now();
  // The matrix's deadline stops the pass as a signal would: between statements and checks.
  bool deadline_reached = false;
  PassOptions bounded = o;
  bounded.should_stop = [&] {
    if (o.should_stop && o.should_stop()) return true;
    if (m.deadline_s &&
        std::chrono::steady_clock::now() - started >= std::chrono::seconds(*m.deadline_s)) {
      deadline_reached = true;
    }
    return deadline_reached;
  };
  // Each check in turn; once a signal has come, the checks not yet begun are recorded as
  // interrupted, never as passed or left out.
  bool stopped = false;
  auto section = [&](bool requested, const std::function<nlohmann::json()>& check) {
    if (!requested) return not_requested();
    stopped = stopped || bounded.should_stop();
    nlohmann::json s = stopped ? nlohmann::json{{"status", kInterrupted}} : check();
    stopped = stopped || s["status"] == kInterrupted;
    return s;
  };
  nlohmann::json sections;
  sections["corpus"] = section(
      !m.corpus.empty(), [&] { return corpus_section(*corpus, engines, record.files, bounded); });
  sections["generator"] = section(m.generator.has_value(), [&] {
    return generator_section(*m.generator, engines, record.files, bounded);
  });
  sections["metamorphic"] = section(m.metamorphic_cases.has_value(), [&] {
    return metamorphic_section(*m.metamorphic_cases, m.seed, engines, bounded.log);
  });
  sections["plans"] = section(m.plan_queries.has_value(), [&] {
    return plans_section(*m.plan_queries, m.seed, engines, record.files, bounded);
  });
  sections["ledgers"] =
      section(!m.ledgers.empty(), [&] { return ledger_section(m.ledgers, m.seed, bounded); });
  sections["faults"] =
      section(m.faults.has_value(), [&] { return fault_section(*m.faults, m.seed, bounded); });
  sections["crash_states"] = section(m.crash_states.has_value(), [&] {
    return crash_state_section(*m.crash_states, m.seed, bounded);
  });
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  describe_pass(m, stopped, deadline_reached, elapsed_s, std::move(sections), record.document);
  return record;
}

}  // namespace jbench::oracle_pass
