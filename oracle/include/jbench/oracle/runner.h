// The corpus runner: plays a parsed corpus (corpus.h) against a target and an oracle, record by
// record, and reports where they part ways.
//
//   RunReport r = run_corpus(corpus, target, oracle);
//   for (const Finding& f : r.divergences) std::cerr << describe(f);
//   // "scalar_subqueries.test:93: divergence: row 0 differs: target ('d'), oracle ('zz')..."
//
// Two kinds of finding, kept apart because they blame different things:
// - a divergence: the target and the oracle disagree (a statement succeeds on one and fails on
//   the other, or a query's results differ under the record's normalization) — the target (or
//   the oracle) is wrong;
// - an expectation failure: the oracle disagrees with the corpus itself (a `statement ok` that
//   fails, a `statement error` that succeeds, a query whose rows are not the `----` rows) — the
//   corpus or the oracle is wrong, and the divergences around it are suspect.
// A third, an engine failure: one side did not answer at all (crashed, timed out, spoke
// garbage: ResultSet::engine_failure). It names the statement and ends the run.
// Pure over the Target interface: no I/O of its own.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jbench/common/diagnostic.h"
#include "jbench/oracle/corpus.h"
#include "jbench/oracle/result_set.h"
#include "jbench/oracle/target.h"

namespace jbench::oracle {

struct RunOptions {
  // Stop playing at the first divergence or expectation failure (for a reduction, which only
  // needs one); by default the whole corpus is played.
  bool stop_at_first = false;
  // At most this many findings of each kind are recorded; the rest are only counted, so a badly
  // broken target cannot make the report unbounded.
  std::size_t max_findings = 100;
  // Asked before each record; true stops the run there (Ctrl-C), and the report says so.
  std::function<bool()> should_stop;
  // Column names compared where both engines report them; false for a target that rewrites
  // statements, whose columns are named after its own text (an oracle matrix's
  // `waive: [column_names]`).
  bool compare_column_names = true;
};

enum class FindingKind { divergence, expectation_failure, target_failure };

struct Finding {
  FindingKind kind = FindingKind::divergence;
  SourceLocation where;  // the record's first line in the corpus file
  std::string sql;
  std::vector<Value> params;
  // Both engines' results, printed (describe_result); for an expectation failure also the
  // corpus's expected rows (or "ok" / "an error" for a statement record).
  std::string target_result;
  std::string oracle_result;
  std::optional<std::string> expected;
  nlohmann::json normalization;  // to_json(Normalization) the comparison used; null for statements
  std::string what;              // the difference in words
};

struct RunReport {
  std::string target_name;
  std::string oracle_name;
  std::size_t records_played = 0;       // records run, on both engines
  std::size_t statements_compared = 0;  // of those, the ones whose outcomes were compared
  std::vector<Finding> divergences;
  std::vector<Finding> expectation_failures;
  std::vector<Finding> target_failures;  // at most one: the run stops at it
  // Both engines keep prepared statements across records (Target::supports_prepared); false:
  // `prepared:` records ran afresh on at least one of them, and reset was not exercised there.
  bool prepared_supported = true;
  // Queries the target answered without naming its columns where the oracle named them: their
  // names were not compared (the column count was, by the rows' widths).
  std::size_t columns_unreported = 0;
  // The coverage table: how many records of each shape ran (shape_of).
  std::map<std::string, std::size_t> coverage;
  // The values of the oracle's answers to the queries compared, by storage class: "null",
  // "integer", "real", "text", "blob" (a class never seen is absent).
  std::map<std::string, std::size_t> value_classes;
  // Findings past max_findings, counted but not recorded.
  std::size_t divergences_left_off = 0;
  std::size_t expectation_failures_left_off = 0;
  bool stopped_early = false;  // stop_at_first, an engine failure or should_stop cut it short
  bool interrupted = false;    // should_stop did

  bool clean() const {
    return divergences.empty() && expectation_failures.empty() && target_failures.empty();
  }
};

// A record's shape for the coverage table: its generator template's name, else the first keyword
// of its SQL in capitals ("INSERT", "SELECT", "SAVEPOINT").
std::string shape_of(const Record& r);

RunReport run_corpus(const Corpus& corpus, Target& target, Target& oracle,
                     const RunOptions& options = {});

// "error 1: no such table: x" or "2 rows: (1, 'a'), (2, NULL)".
std::string describe_result(const ResultSet& r);
// A finding over several lines: file:line, kind and what, the SQL, params, both results, the
// normalization.
std::string describe(const Finding& f);
const char* to_string(FindingKind kind);
// {"kind", "where": "file:line", "sql", "params": [literals], "target", "oracle", "expected"?,
//  "normalization"?, "what"} — how a finding is recorded in an oracle bundle.
nlohmann::json to_json(const Finding& f);
// The counts and every recorded finding: {"target", "oracle", "records_played",
// "statements_compared", "prepared_supported", "stopped_early", "divergences": [...],
// "expectation_failures": [...], "engine_failures": [...], "left_off": {...}}.
nlohmann::json to_json(const RunReport& r);

}  // namespace jbench::oracle
