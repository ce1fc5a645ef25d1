// The pass's checks, one function each; each returns its section of oracle.json and adds the
// files it wants kept (reductions) to `files`. Private to jbench::oracle_pass.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/matrix/oracle_matrix.h"
#include "jbench/oracle/corpus.h"
#include "jbench/oracle/reduce.h"
#include "jbench/oracle/runner.h"
#include "jbench/oracle_pass/engines.h"
#include "jbench/oracle_pass/oracle_pass.h"

namespace jbench::oracle_pass {

using Files = std::vector<std::pair<std::string, std::string>>;

struct Engines {
  EngineFactory target;
  EngineFactory oracle;               // empty when the matrix names none
  bool prepared_waived = false;       // the matrix's `waive: [prepared]`
  bool column_names_waived = false;   // `waive: [column_names]`: not compared, not asked for
  bool optimizations_waived = false;  // `waive: [optimizations]`: a target without switches
};

// Every corpus file the matrix names, parsed; the first syntax error refuses them all.
Result<std::vector<oracle::Corpus>> load_corpus(const OracleMatrix& m, const std::string& base);

nlohmann::json corpus_section(const std::vector<oracle::Corpus>& corpus, const Engines& e,
                              Files& files, const PassOptions& o);
nlohmann::json generator_section(const OracleGeneratorSpec& spec, const Engines& e, Files& files,
                                 const PassOptions& o);
nlohmann::json metamorphic_section(std::uint64_t cases, std::uint64_t seed, const Engines& e,
                                   std::ostream* log);
// The query-plan oracle (oracle/plans.h) on the target alone, after fill_tables.
nlohmann::json plans_section(std::uint64_t queries, std::uint64_t seed, const Engines& e,
                             Files& files, const PassOptions& o);
nlohmann::json ledger_section(const std::vector<OracleLedgerSpec>& specs, std::uint64_t seed,
                              const PassOptions& o);
nlohmann::json fault_section(const OracleFaultSpec& spec, std::uint64_t seed, const PassOptions& o);
nlohmann::json crash_state_section(const OracleCrashStateSpec& spec, std::uint64_t seed,
                                   const PassOptions& o);

// An entry of a section's `not_exercised`: a check the target declined (`what`), and whether the
// matrix waived it by name (`waive: [capability]`); unwaived, it fails the section.
nlohmann::json not_exercised(const char* capability, bool waived, const std::string& what);

// The generator's tables and first rows (a stream of kFillStatements), on `target` alone, for the
// single-engine checks, or why the target could not answer them.
inline constexpr std::size_t kFillStatements = 300;
Status fill_tables(oracle::Target& target, std::uint64_t seed);

// Plays `stream` on fresh engines; a first divergence is reduced and its script kept as
// reductions/<name>.sql. The section's body: the run's counts and findings, the reduction.
nlohmann::json compare_stream(const oracle::Corpus& stream, const std::string& name,
                              const Engines& e, const oracle::ReduceOptions& budget, Files& files,
                              const std::function<bool()>& should_stop);

}  // namespace jbench::oracle_pass
