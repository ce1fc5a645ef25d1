#include "jbench/oracle/reduce.h"

#include <algorithm>
#include <chrono>

namespace jbench::oracle {

namespace {

bool same_place(const SourceLocation& a, const SourceLocation& b) {
  return a.file == b.file && a.line == b.line;
}

class Replayer {
 public:
  Replayer(const Record& diverging, const TargetFactory& target, const TargetFactory& oracle,
           bool compare_column_names)
      : diverging_(diverging),
        target_(target),
        oracle_(oracle),
        compare_column_names_(compare_column_names) {}

  // Whether `prefix` followed by the diverging record diverges there first.
  bool diverges(const std::vector<Record>& prefix, Finding* out = nullptr) {
    ++trials;
    Corpus c;
    c.records = prefix;
    c.records.push_back(diverging_);
    std::unique_ptr<Target> t = target_();
    std::unique_ptr<Target> o = oracle_();
    if (!t || !o) return false;
    RunOptions options;
    options.stop_at_first = true;
    options.compare_column_names = compare_column_names_;
    RunReport r = run_corpus(c, *t, *o, options);
    if (r.divergences.empty() || !r.target_failures.empty()) return false;
    if (!same_place(r.divergences[0].where, diverging_.where)) return false;
    if (out) *out = r.divergences[0];
    return true;
  }

  std::size_t trials = 0;

 private:
  const Record& diverging_;
  const TargetFactory& target_;
  const TargetFactory& oracle_;
  bool compare_column_names_;
};

std::vector<Record> without_chunk(const std::vector<Record>& v, std::size_t begin,
                                  std::size_t end) {
  std::vector<Record> out(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(begin));
  out.insert(out.end(), v.begin() + static_cast<std::ptrdiff_t>(end), v.end());
  return out;
}

std::string comment_lines(const std::string& label, const std::string& text) {
  std::string out;
  std::size_t pos = 0;
  bool first = true;
  while (pos <= text.size()) {
    std::size_t nl = std::min(text.find('\n', pos), text.size());
    out += "-- " + (first ? label : std::string(label.size(), ' ')) + text.substr(pos, nl - pos) +
           "\n";
    first = false;
    pos = nl + 1;
  }
  return out;
}

}  // namespace

Reduction reduce(const Corpus& corpus, const Finding& divergence, const TargetFactory& target,
                 const TargetFactory& oracle, const ReduceOptions& options) {
  Reduction red;
  red.finding = divergence;
  auto at = std::find_if(corpus.records.begin(), corpus.records.end(),
                         [&](const Record& r) { return same_place(r.where, divergence.where); });
  if (at == corpus.records.end()) return red;
  Record diverging = *at;
  diverging.has_expected = false;
  std::vector<Record> prefix(corpus.records.begin(), at);
  for (Record& r : prefix) r.has_expected = false;
  red.original_records = prefix.size() + 1;

  Replayer replay(diverging, target, oracle, options.compare_column_names);
  const auto started = std::chrono::steady_clock::now();
  auto out_of_budget = [&] {
    return replay.trials >= options.max_trials ||
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() >
               options.max_seconds;
  };
  Finding found;
  red.reproduced = replay.diverges(prefix, &found);
  if (!red.reproduced) {
    red.trials = replay.trials;
    return red;
  }
  // ddmin on the complements: with n chunks, drop each chunk in turn; keep a smaller stream that
  // still diverges; when none can go, split finer, until chunks are single records.
  std::size_t n = 2;
  while (!prefix.empty()) {
    if (out_of_budget()) {
      red.budget_exhausted = true;
      break;
    }
    n = std::min(n, prefix.size());
    std::size_t chunk = (prefix.size() + n - 1) / n;
    bool smaller = false;
    for (std::size_t begin = 0; begin < prefix.size() && !out_of_budget(); begin += chunk) {
      std::vector<Record> candidate =
          without_chunk(prefix, begin, std::min(begin + chunk, prefix.size()));
      if (replay.diverges(candidate, &found)) {
        prefix = std::move(candidate);
        n = std::max<std::size_t>(n - 1, 2);
        smaller = true;
        break;
      }
    }
    if (smaller) continue;
    if (out_of_budget()) {
      red.budget_exhausted = true;
      break;
    }
    if (chunk == 1) break;  // no single record can go: 1-minimal
    n = std::min(prefix.size(), n * 2);
  }
  red.trials = replay.trials;
  red.records = std::move(prefix);
  red.records.push_back(diverging);
  red.finding = found;
  return red;
}

std::string to_sql_script(const Reduction& r) {
  std::string out =
      "-- A reduced reproduction: " + std::to_string(r.records.size()) + " of " +
      std::to_string(r.original_records) +
      " statements; the last one is where the target and the oracle differ.\n"
      "-- Run it with: sqlite3 :memory: < this-file.sql (functions named jbench_* need\n"
      "-- `.load <build>/bin/jbench-oracle-functions jbench_oracle_functions_init` first).\n";
  for (std::size_t i = 0; i < r.records.size(); ++i) {
    const Record& rec = r.records[i];
    bool last = i + 1 == r.records.size();
    out += "\n-- " + rec.where.file + ":" + std::to_string(rec.where.line);
    if (!rec.prepared.empty()) out += " (prepared statement '" + rec.prepared + "')";
    if (rec.kind == RecordKind::statement_error) out += " (expected to fail)";
    out += "\n";
    if (!rec.params.empty()) {
      out += ".param clear\n";
      for (std::size_t p = 0; p < rec.params.size(); ++p) {
        out += ".param set ?" + std::to_string(p + 1) + " " + to_sql_literal(rec.params[p]) + "\n";
      }
    }
    out += rec.sql + ";\n";
    if (last) {
      out += comment_lines("target: ", r.finding.target_result);
      out += comment_lines("oracle: ", r.finding.oracle_result);
      out += comment_lines("differs: ", r.finding.what);
    }
  }
  return out;
}

nlohmann::json to_json(const Reduction& r) {
  nlohmann::json statements = nlohmann::json::array();
  for (const Record& rec : r.records) {
    nlohmann::json params = nlohmann::json::array();
    for (const Value& v : rec.params) params.push_back(to_sql_literal(v));
    nlohmann::json s = {{"where", rec.where.file + ":" + std::to_string(rec.where.line)},
                        {"sql", rec.sql},
                        {"params", params}};
    if (!rec.prepared.empty()) s["prepared"] = rec.prepared;
    statements.push_back(std::move(s));
  }
  return {{"reproduced", r.reproduced},
          {"statements", r.records.size()},
          {"original_statements", r.original_records},
          {"trials", r.trials},
          {"budget_exhausted", r.budget_exhausted},
          {"records", statements},
          {"script", to_sql_script(r)}};
}

}  // namespace jbench::oracle
