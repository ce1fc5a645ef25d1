// The engines an oracle matrix names (OracleEngineSpec), as factories of fresh Targets: each
// check (a corpus file, the generated stream, each replay of a reduction) starts on engines in
// their initial state.
//
//   auto make = engine_factory(matrix.target, "matrices");
//   if (!make) return make.error();            // a command that is not there: bad input
//   std::unique_ptr<Target> t = (*make)(&why);  // null, with `why`, if it did not start
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "jbench/common/result.h"
#include "jbench/matrix/oracle_matrix.h"
#include "jbench/oracle/reduce.h"
#include "jbench/oracle/target.h"

namespace jbench::oracle_pass {

// A fresh engine, or why it did not start (an engine process that said no hello).
using EngineFactory = std::function<Result<std::unique_ptr<oracle::Target>>()>;

// The factory as the oracle's reducers take it: a fresh engine, null when it did not start.
oracle::TargetFactory target_factory(const EngineFactory& make);

// `base_dir` is the matrix file's directory: a command's program given with a '/' is relative
// to it; one without is searched on PATH. The program must exist now (an error otherwise).
Result<EngineFactory> engine_factory(const OracleEngineSpec& spec, const std::string& base_dir);

// What the record calls the engine before it runs: "sqlite (in process)",
// "sqlite (in process, optimizer off)", or the command line.
std::string describe_engine(const OracleEngineSpec& spec);

}  // namespace jbench::oracle_pass
