// A `kind: process` worker's own account of itself: the `describe` line it prints
// (docs/worker-protocol.md, "describe"), held as the parameter table a built-in kind has in
// workload_kinds.h, so that a matrix's `workload.params` are checked against it by the same code
// and with the same located errors. Pure: reading the line is the caller's (run/worker_describe.h).
//
//   auto declared = parse_worker_declaration(line);       // or what is wrong with the line
//   auto problems = declare_workload(matrix, *declared);   // the matrix's params, checked
#pragma once

#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/diagnostic.h"
#include "jbench/common/result.h"
#include "jbench/matrix/matrix.h"
#include "jbench/matrix/workload_kinds.h"

namespace jbench {

inline constexpr int kWorkerProtocolVersion = 1;

class WorkerDeclaration {
 public:
  WorkerDeclaration() = default;
  // Its kind's views point into its own storage: never copied, shared.
  WorkerDeclaration(const WorkerDeclaration&) = delete;
  WorkerDeclaration& operator=(const WorkerDeclaration&) = delete;

  // The kind as the decoder reads it: its name is the worker's own ("process" workers say who
  // they are), its parameters the declared ones in declared order.
  const WorkloadKind& kind() const { return kind_; }
  const std::string& worker() const { return worker_; }
  // What its collectors must know (`traits`): it reports garbage collections through the trace
  // bridge, and it samples its own allocations (a managed runtime) instead of being sampled by
  // the LD_PRELOAD sampler (a native program, the default).
  bool gc_events() const { return gc_events_; }
  bool runtime_allocates() const { return runtime_allocates_; }
  // The line as the worker printed it (one JSON object): what the bundle keeps.
  const std::string& line() const { return line_; }

 private:
  friend Result<std::shared_ptr<const WorkerDeclaration>> parse_worker_declaration(
      std::string_view line);
  // The parts of parse_worker_declaration: each fills `d` or says why it cannot.
  static Status read_param(const nlohmann::json& p, const std::string& at, WorkerDeclaration& d);
  static Status read_choices(const nlohmann::json& p, const std::string& at, WorkerDeclaration& d,
                             ParamSpec& spec);
  static Status read_traits(const nlohmann::json& doc, WorkerDeclaration& d);
  // `s` kept for the declaration's life: what the kind's views point into.
  std::string_view text(std::string s) { return texts_.emplace_back(std::move(s)); }
  std::string line_;
  std::string worker_;
  bool gc_events_ = false;
  bool runtime_allocates_ = false;
  std::deque<std::string> texts_;  // every name, meaning and choice the views below point into
  std::deque<std::vector<std::string_view>> choices_;
  std::vector<ParamSpec> params_;
  WorkloadKind kind_;
};

// The worker's `describe` line, checked: `{"type":"describe","protocol":1,"worker":NAME,
// "meaning":TEXT,"params":[{"name","type","min","max","choices","default","meaning"}...],
// "traits":{"gc_events":BOOL,"allocations":"native"|"runtime"}}` (traits optional).
// Or one sentence naming the first problem (the field's path).
Result<std::shared_ptr<const WorkerDeclaration>> parse_worker_declaration(std::string_view line);

// Checks a `kind: process` matrix's `workload.params` against the declaration and fills
// m.workload.params (every declared parameter, defaults marked) and m.workload.declaration.
// The problems are located in the matrix file, as a built-in kind's would be.
std::vector<Diagnostic> declare_workload(Matrix& m,
                                         std::shared_ptr<const WorkerDeclaration> declaration);

// A bundle's process matrix, declared again from what its plan.json kept of the worker's
// declaration (matrix.workload.declaration), or why it cannot be.
Status declare_from_plan(Matrix& m, const nlohmann::json& plan);

// Where two parameter tables differ (names and order, types, ranges, choices, defaults), a
// sentence each; empty when they agree. A built-in kind's table against what its worker
// declares: the harness must never accept a value its worker refuses.
std::vector<std::string> parameter_differences(const WorkloadKind& expected,
                                               const WorkloadKind& declared);

// The parameter table of the matrix's workload: a built-in kind's, or the declared one of a
// process worker (null before it is declared).
const WorkloadKind* workload_kind_of(const Workload& w);

}  // namespace jbench
