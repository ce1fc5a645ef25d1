#include "jbench/oracle/runner.h"

#include <array>
#include <cctype>
#include <utility>

#include "jbench/oracle/compare.h"
#include "jbench/oracle/limit_ties.h"
#include "jbench/oracle/normalize.h"
#include "jbench/oracle/sql_lexer.h"

namespace jbench::oracle {

namespace {

std::string outcome_words(const ResultSet& r) { return r.ok() ? "ok" : "an error"; }

Finding finding_of(FindingKind kind, const Record& r, const ResultSet& target,
                   const ResultSet& oracle, std::string what) {
  Finding f;
  f.kind = kind;
  f.where = r.where;
  f.sql = r.sql;
  f.params = r.params;
  f.target_result = describe_result(target);
  f.oracle_result = describe_result(oracle);
  f.what = std::move(what);
  return f;
}

// Records a finding within the bound, or counts it past it.
void add(std::vector<Finding>& list, std::size_t& left_off, Finding f, std::size_t max) {
  if (list.size() < max) {
    list.push_back(std::move(f));
  } else {
    ++left_off;
  }
}

// A statement record: the outcome (ok or error) is compared, and two failures by their primary
// result codes (a UNIQUE violation reported as a generic error is wrong), as the corpus says
// nothing of its rows; the oracle's outcome is also checked against the header.
void play_statement(const Record& r, const ResultSet& target, const ResultSet& oracle,
                    RunReport& report, const RunOptions& options) {
  if (target.ok() != oracle.ok()) {
    add(report.divergences, report.divergences_left_off,
        finding_of(FindingKind::divergence, r, target, oracle,
                   "the statement is " + outcome_words(target) + " on the target but " +
                       outcome_words(oracle) + " on the oracle"),
        options.max_findings);
  } else if (!target.ok() && (target.error->code & 0xff) != (oracle.error->code & 0xff)) {
    add(report.divergences, report.divergences_left_off,
        finding_of(FindingKind::divergence, r, target, oracle,
                   "the statement fails with primary code " +
                       std::to_string(target.error->code & 0xff) + " on the target but " +
                       std::to_string(oracle.error->code & 0xff) + " on the oracle"),
        options.max_findings);
  }
  bool want_ok = r.kind == RecordKind::statement_ok;
  if (r.outcome_expected && oracle.ok() != want_ok) {
    Finding f = finding_of(FindingKind::expectation_failure, r, target, oracle,
                           "the corpus expects " + std::string(want_ok ? "ok" : "an error") +
                               ", the oracle gave " + outcome_words(oracle));
    f.expected = want_ok ? "ok" : "an error";
    add(report.expectation_failures, report.expectation_failures_left_off, std::move(f),
        options.max_findings);
  }
}

// The target's last tie group under a LIMIT, looked up in the oracle's result of the statement
// without its LIMIT (limit_ties.h). nullopt when nothing is wrong there.
std::optional<std::string> invented_rows(const Record& r, const ResultSet& target,
                                         Target& oracle_engine, const Normalization& n) {
  if (!r.limit_ties || !r.unlimited || !target.ok()) return std::nullopt;
  const ResultSet all = oracle_engine.run(r.unlimited->sql, r.unlimited->params);
  if (!all.ok()) {
    return "the statement without its LIMIT, which checks the rows of its last tie group, "
           "did not run on the oracle: " +
           describe_result(all);
  }
  if (auto d = invented_tie_rows(target.rows, all.rows, n)) return d->what;
  return std::nullopt;
}

// The coverage of value classes: each value of the oracle's answer, by its storage class.
void count_value_classes(const ResultSet& oracle, RunReport& report) {
  static constexpr std::array<const char*, 5> kNames = {"null", "integer", "real", "text", "blob"};
  for (const Row& row : oracle.rows) {
    for (const Value& v : row) ++report.value_classes[kNames[static_cast<std::size_t>(v.kind)]];
  }
}

void play_query(const Record& r, const ResultSet& target, const ResultSet& oracle,
                Target& oracle_engine, RunReport& report, const RunOptions& options) {
  count_value_classes(oracle, report);
  Normalization n = normalization_of(r);
  n.compare_column_names = options.compare_column_names;
  if (target.ok() && target.columns.empty() && !oracle.columns.empty()) {
    ++report.columns_unreported;
  }
  const auto differs = compare(target, oracle, n);
  std::optional<std::string> wrong = differs ? std::optional(differs->what) : std::nullopt;
  if (!wrong) wrong = invented_rows(r, target, oracle_engine, n);
  if (wrong) {
    Finding f = finding_of(FindingKind::divergence, r, target, oracle, *wrong);
    f.normalization = to_json(n);
    add(report.divergences, report.divergences_left_off, std::move(f), options.max_findings);
  }
  if (!r.has_expected) return;
  ResultSet expected = expected_of(r);
  // compare() words its message as target vs oracle; here its left side is the oracle's result
  // and its right side the corpus's rows, which the message says before quoting it.
  if (auto d = compare(oracle, expected, n)) {
    Finding f = finding_of(
        FindingKind::expectation_failure, r, target, oracle,
        "the oracle's result differs from the corpus's expected rows (below, 'target' is the "
        "oracle's result and 'oracle' the expected rows): " +
            d->what);
    f.expected = describe_result(expected);
    f.normalization = to_json(n);
    add(report.expectation_failures, report.expectation_failures_left_off, std::move(f),
        options.max_findings);
  }
}

ResultSet play(Target& engine, const Record& r) {
  return r.prepared.empty() ? engine.run(r.sql, r.params)
                            : engine.run_prepared(r.prepared, r.sql, r.params);
}

// An engine that did not answer: a finding about it, and the end of the run, since its state
// (and whether it still exists) is no longer known.
bool engine_failed(const Record& r, const ResultSet& t, const ResultSet& o, RunReport& report) {
  if (!t.engine_failure && !o.engine_failure) return false;
  Finding f = finding_of(FindingKind::target_failure, r, t, o, "");
  if (t.engine_failure) f.what = "the target did not answer: " + *t.engine_failure;
  if (o.engine_failure) {
    f.what +=
        std::string(f.what.empty() ? "" : "; ") + "the oracle did not answer: " + *o.engine_failure;
  }
  report.target_failures.push_back(std::move(f));
  return true;
}

}  // namespace

RunReport run_corpus(const Corpus& corpus, Target& target, Target& oracle,
                     const RunOptions& options) {
  RunReport report;
  report.target_name = target.name();
  report.oracle_name = oracle.name();
  report.prepared_supported = target.supports_prepared() && oracle.supports_prepared();
  for (const Record& r : corpus.records) {
    if (options.should_stop && options.should_stop()) {
      report.stopped_early = report.interrupted = true;
      break;
    }
    // Both engines run every record, in corpus order, so their states stay in step.
    ResultSet t = play(target, r);
    ResultSet o = play(oracle, r);
    ++report.records_played;
    ++report.coverage[shape_of(r)];
    if (engine_failed(r, t, o, report)) {
      report.stopped_early = &r != &corpus.records.back();
      break;
    }
    ++report.statements_compared;  // one statement per record (docs/oracle-corpus.md)
    if (r.kind == RecordKind::query) {
      play_query(r, t, o, oracle, report, options);
    } else {
      play_statement(r, t, o, report, options);
    }
    if (options.stop_at_first && !report.clean()) {
      report.stopped_early = &r != &corpus.records.back();
      break;
    }
  }
  return report;
}

std::string shape_of(const Record& r) {
  if (!r.shape.empty()) return r.shape;
  for (const SqlToken& t : lex_sql(r.sql)) {
    if (t.kind == TokenKind::space) continue;
    std::string word = r.sql.substr(t.begin, t.end - t.begin);
    for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return word;
  }
  return "(empty)";
}

std::string describe_result(const ResultSet& r) {
  if (r.engine_failure) return "no answer: " + *r.engine_failure;
  std::string out;
  if (r.error) out = "error " + std::to_string(r.error->code) + ": " + r.error->message;
  // Rows produced before an error are part of the result too.
  if (r.error && r.rows.empty()) return out;
  if (r.error) out += ", after ";
  out += std::to_string(r.rows.size()) + (r.rows.size() == 1 ? " row" : " rows");
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    out += i ? ", " : ": ";
    out += to_sql_literal(r.rows[i]);
  }
  return out;
}

std::string describe(const Finding& f) {
  std::string out = f.where.file + ":" + std::to_string(f.where.line) + ": " + to_string(f.kind) +
                    ": " + f.what + "\n  sql: " + f.sql + "\n  params: ";
  out += to_sql_literal(f.params);
  out += "\n  target: " + f.target_result + "\n  oracle: " + f.oracle_result;
  if (f.expected) out += "\n  expected: " + *f.expected;
  if (!f.normalization.is_null()) out += "\n  normalization: " + f.normalization.dump();
  return out + "\n";
}

const char* to_string(FindingKind kind) {
  switch (kind) {
    case FindingKind::divergence:
      return "divergence";
    case FindingKind::expectation_failure:
      return "expectation failure";
    case FindingKind::target_failure:
      return "engine failure";
  }
  return "divergence";
}

nlohmann::json to_json(const Finding& f) {
  nlohmann::json params = nlohmann::json::array();
  for (const Value& v : f.params) params.push_back(to_sql_literal(v));
  nlohmann::json j = {{"kind", to_string(f.kind)},
                      {"where", f.where.file + ":" + std::to_string(f.where.line)},
                      {"sql", f.sql},
                      {"params", params},
                      {"target", f.target_result},
                      {"oracle", f.oracle_result},
                      {"what", f.what}};
  if (f.expected) j["expected"] = *f.expected;
  if (!f.normalization.is_null()) j["normalization"] = f.normalization;
  return j;
}

nlohmann::json to_json(const RunReport& r) {
  auto list = [](const std::vector<Finding>& findings) {
    nlohmann::json out = nlohmann::json::array();
    for (const Finding& f : findings) out.push_back(to_json(f));
    return out;
  };
  return {{"target", r.target_name},
          {"oracle", r.oracle_name},
          {"records_played", r.records_played},
          {"statements_compared", r.statements_compared},
          {"prepared_supported", r.prepared_supported},
          {"columns_unreported", r.columns_unreported},
          {"coverage", r.coverage},
          {"value_classes", r.value_classes},
          {"stopped_early", r.stopped_early},
          {"interrupted", r.interrupted},
          {"divergences", list(r.divergences)},
          {"expectation_failures", list(r.expectation_failures)},
          {"engine_failures", list(r.target_failures)},
          {"left_off",
           {{"divergences", r.divergences_left_off},
            {"expectation_failures", r.expectation_failures_left_off}}}};
}

}  // namespace jbench::oracle
