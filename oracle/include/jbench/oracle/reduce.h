// Delta debugging of a divergence: the fewest records of a corpus (or a generated stream) that
// still make the target and the oracle part ways at the same statement, replayed each time on
// fresh engines, and printed as an SQL script the sqlite3 shell runs as is.
//
//   Reduction r = reduce(corpus, report.divergences[0], make_target, make_oracle);
//   if (r.reproduced) std::cout << to_sql_script(r);   // 4 statements, the diverging one last
//
// The search is ddmin over the records before the diverging one (which is always kept): it
// removes chunks, halving them until no single record can go, so the result is 1-minimal —
// removing any one record loses the divergence. A candidate counts only if the first finding
// of its replay is a divergence at the same record; expectations are dropped (a shorter stream
// changes what the corpus's rows should be). Bounded by `max_trials` replays.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "jbench/oracle/corpus.h"
#include "jbench/oracle/runner.h"
#include "jbench/oracle/target.h"

namespace jbench::oracle {

// A fresh engine in its initial state (an empty database), for each replay.
using TargetFactory = std::function<std::unique_ptr<Target>()>;

struct ReduceOptions {
  std::size_t max_trials = 2000;
  double max_seconds = 120;          // a long stream's replays add up: stop, and say so, past this
  bool compare_column_names = true;  // as the run that found the divergence (RunOptions)
};

struct Reduction {
  bool reproduced = false;      // replaying up to the divergence on fresh engines diverged again
  std::vector<Record> records;  // the reduced stream; the diverging record last
  std::size_t original_records = 0;  // the stream up to and including the diverging record
  std::size_t trials = 0;            // replays run
  bool budget_exhausted = false;     // stopped at a budget: small, but maybe not 1-minimal
  Finding finding;                   // the divergence as the reduced stream shows it
};

Reduction reduce(const Corpus& corpus, const Finding& divergence, const TargetFactory& target,
                 const TargetFactory& oracle, const ReduceOptions& options = {});

// The reduced stream as an SQL script for the sqlite3 shell: `.param set` lines before each
// statement with parameters, each statement terminated, comments with its source line, and the
// diverging statement last with both engines' results.
std::string to_sql_script(const Reduction& r);

nlohmann::json to_json(const Reduction& r);

}  // namespace jbench::oracle
