#include "jbench/oracle_pass/oracle_pass.h"

#include <chrono>
#include <filesystem>

#include "jbench/common/clock.h"
#include "jbench/oracle/normalize.h"
#include "sections.h"

namespace jbench::oracle_pass {

namespace {

nlohmann::json not_requested() { return {{"status", kNotRequested}}; }

}  // namespace

Result<OracleRecord> run_oracle_pass(const OracleMatrix& m, const PassOptions& o) {
  const std::string base = std::filesystem::path(m.file).parent_path().string();
  // Everything that can refuse the input is checked before any check runs.
  Engines engines;
  auto target = engine_factory(m.target, base.empty() ? "." : base);
  if (!target) return target.error();
  engines.target = *target;
  if (m.oracle) {
    auto oracle_engine = engine_factory(*m.oracle, base.empty() ? "." : base);
    if (!oracle_engine) return oracle_engine.error();
    engines.oracle = *oracle_engine;
  }
  auto corpus = load_corpus(m, base.empty() ? "." : base);
  if (!corpus) return corpus.error();

  OracleRecord record;
  const auto started = std::chrono::steady_clock::now();
  nlohmann::json sections;
  sections["corpus"] =
      m.corpus.empty() ? not_requested() : corpus_section(*corpus, engines, record.files, o.log);
  sections["generator"] =
      m.generator ? generator_section(*m.generator, engines, record.files, o.log) : not_requested();
  sections["metamorphic"] = m.metamorphic_cases
                                ? metamorphic_section(*m.metamorphic_cases, m.seed, engines, o.log)
                                : not_requested();
  sections["ledgers"] = m.ledgers.empty() ? not_requested() : ledger_section(m.ledgers, m.seed, o);
  sections["faults"] = m.faults ? fault_section(*m.faults, m.seed, o) : not_requested();

  bool passed = true;
  std::size_t ran = 0;
  for (const auto& [name, s] : sections.items()) {
    if (s["status"] == kNotRequested) continue;
    ++ran;
    passed = passed && s["status"] == kPassed;
  }
  nlohmann::json& d = record.document;
  d["schema"] = "jbench.oracle";
  d["schema_version"] = 1;
  d["name"] = m.name;
  d["description"] = m.description;
  d["seed"] = std::to_string(m.seed);
  d["matrix_sha256"] = m.sha256;
  d["target"] = describe_engine(m.target);
  d["oracle"] = m.oracle ? nlohmann::json(describe_engine(*m.oracle)) : nlohmann::json(nullptr);
  d["finished_utc"] = utc_now("%Y-%m-%dT%H:%M:%SZ");
  d["elapsed_s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // The comparison rules every query used unless its record says otherwise (docs/oracle.md).
  d["normalization"] = oracle::to_json(oracle::Normalization{});
  // Nothing checked is never a pass (the matrix loader refuses such a matrix already).
  d["passed"] = passed && ran > 0;
  d["sections"] = std::move(sections);
  return record;
}

}  // namespace jbench::oracle_pass
