// resolve_proposal: the files a proposal names, loaded and checked against each other before
// anything runs, every problem located in the proposal file.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "jbench/compare/metrics.h"
#include "jbench/host/host_resources.h"
#include "jbench/matrix/declare_process_worker.h"
#include "jbench/matrix/load.h"
#include "jbench/matrix/param_override.h"
#include "jbench/matrix/workload_kinds.h"
#include "jbench/proc/worker_describe.h"
#include "jbench/propose/propose.h"
#include "jbench/run_summaries/project_counters.h"

namespace jbench::propose {
namespace {

namespace fs = std::filesystem;

using AxisMap = std::vector<std::pair<std::string, std::vector<std::string>>>;

std::string relative_to(const std::string& base_dir, const std::string& path) {
  if (fs::path(path).is_absolute()) return path;
  return (fs::absolute(base_dir) / path).lexically_normal().string();
}

// The metric names a rule may use: the comparison's, and any counter of the project's own
// (counter:<name>_per_op, result:<name>_per_op).
bool known_metric(std::string_view metric) {
  for (const auto& m : compare::all_metrics()) {
    if (m.name == metric) return true;
  }
  return run_summaries::is_project_counter(metric) || compare::is_call_count_metric(metric);
}

std::string known_metrics() {
  std::vector<std::string_view> names;
  for (const auto& m : compare::all_metrics()) names.push_back(m.name);
  return fmt::format(
      "{}, one system call's count: syscall:<call>_per_op (light and full runs), or a "
      "project's counter: counter:<name>_per_op (jb_counter, full runs) or "
      "result:<name>_per_op (a worker's result.counters)",
      fmt::join(names, ", "));
}

// Trace modes in which a counter can be measured at all (docs/compare.md, the metric table).
bool needs_traced_mode(std::string_view metric) {
  return metric == "traced_syscalls_per_op" || metric == "fsyncs_per_op" ||
         metric.starts_with("gc_") || compare::is_call_count_metric(metric);
}

struct Checker {
  std::vector<Diagnostic>& out;
  void error(const SourceLocation& at, std::string path, std::string message) {
    out.push_back(Diagnostic{at, std::move(path), std::move(message)});
  }
};

// An axis -> values map as --only arguments ("lane=reader"), for parse_only_filters.
std::vector<std::string> only_arguments(const AxisMap& axes) {
  std::vector<std::string> out;
  for (const auto& [axis, values] : axes)
    out.push_back(fmt::format("{}={}", axis, fmt::join(values, ",")));
  return out;
}

// A side's build: another folder of built-in workers, or another command of a process worker.
// False when the side names one the matrix's workload cannot take.
bool apply_build(Checker& c, const ProposalSide& s, const char* which, const std::string& base_dir,
                 Matrix& m, ResolvedSide& out) {
  const bool process = m.workload.kind == kProcessKind;
  if (!s.command.empty() && !process) {
    c.error(s.command_where, fmt::format("{}.command", which),
            fmt::format("the matrix's workload is the built-in kind '{}': its build is named by "
                        "'worker_dir' (a folder holding jbench-{}-worker)",
                        m.workload.kind, m.workload.kind));
    return false;
  }
  if (s.worker_dir && process) {
    c.error(s.where, fmt::format("{}.worker_dir", which),
            "the matrix's workload is a process worker: name this side's build by its "
            "'command' instead");
    return false;
  }
  if (!s.command.empty()) {
    m.overrides.push_back(
        {"workload.command", fmt::format("{}", fmt::join(m.workload.command, " ")),
         fmt::format("{}", fmt::join(s.command, " ")), fmt::format("proposal {}", which)});
    m.workload.command = s.command;
  }
  if (s.worker_dir) {
    out.worker_dir = relative_to(base_dir, *s.worker_dir);
    const std::string worker = out.worker_dir + "/jbench-" + m.workload.kind + "-worker";
    if (::access(worker.c_str(), X_OK) != 0) {
      c.error(s.where, fmt::format("{}.worker_dir", which),
              fmt::format("{} holds no executable {}", out.worker_dir,
                          fs::path(worker).filename().string()));
      return false;
    }
  }
  // A process worker says which parameters it takes: each side's build is asked, since a
  // candidate may declare other parameters than the baseline.
  auto problems = declare_process_worker(m);
  for (auto& d : problems) c.out.push_back(std::move(d));
  return problems.empty();
}

// The side's correctness gate: its oracle matrix, loaded; or its gate command, found.
bool resolve_gate(Checker& c, const ProposalSide& s, const char* which, const std::string& base_dir,
                  ResolvedSide& out) {
  if (!s.gate_command.empty()) {
    out.gate_command = s.gate_command;
    out.gate_command.front() = proc::worker_program(s.gate_command.front());
    out.gate_dir = fs::absolute(base_dir).lexically_normal().string();
    out.gate_timeout_s = s.gate_timeout_s;
    if (out.gate_command.front().empty()) {
      c.error(s.oracle_where, fmt::format("{}.gate.command", which),
              fmt::format("'{}' is not an executable file", s.gate_command.front()));
      return false;
    }
    return true;
  }
  const std::string oracle_path = relative_to(base_dir, s.oracle);
  if (!fs::is_regular_file(oracle_path)) {
    c.error(s.oracle_where, fmt::format("{}.oracle", which),
            fmt::format("{} is not a file", oracle_path));
    return false;
  }
  LoadedOracleMatrix oracle = load_oracle_matrix_file(oracle_path);
  if (!oracle.matrix) {
    for (auto& d : oracle.diagnostics) c.out.push_back(std::move(d));
    return false;
  }
  out.oracle = std::move(*oracle.matrix);
  return true;
}

std::optional<ResolvedSide> resolve_side(Checker& c, const ProposalSide& s, const char* which,
                                         const std::string& base_dir, const Matrix& matrix,
                                         const std::vector<OnlyFilter>& filters,
                                         const std::string& rule_hash) {
  Matrix m = matrix;
  ResolvedSide out;
  bool ok = apply_build(c, s, which, base_dir, m, out);
  // One repetition a session: the proposal's sessions are its repetitions.
  if (m.repetitions != 1) {
    m.overrides.push_back({"repetitions", std::to_string(m.repetitions), "1",
                           "jbench propose (one repetition per session)"});
    m.repetitions = 1;
  }
  // The sessions name their binaries by hash but keep no copies: a copy per session would make a
  // proposal of 32 sessions a gigabyte of the same few files.
  if (m.limits.provenance_mib != 0) {
    m.overrides.push_back({"limits.provenance_mib", fmt::format("{}", m.limits.provenance_mib), "0",
                           "jbench propose (binaries named by hash, not copied per session)"});
    m.limits.provenance_mib = 0;
  }
  // A process worker's settings are checked against what its build declared, so only once it has.
  for (const auto& param : ok ? s.params : std::vector<ProposalParam>{}) {
    if (const Status set =
            override_param(m, param.key, param.value, fmt::format("proposal {}", which));
        !set) {
      c.error(param.where, fmt::format("{}.params.{}", which, param.key), set.error().message);
      ok = false;
    }
  }
  // Every session bundle carries the rule's hash: editing the rule afterwards would have to
  // rewrite every session's checksummed manifest too.
  m.overrides.push_back({"proposal.rule_sha256", "", rule_hash,
                         "jbench propose (the decision rule, hashed before the first run)"});
  ok = resolve_gate(c, s, which, base_dir, out) && ok;
  if (!ok) return std::nullopt;
  out.plan = make_plan(m, filters, probe_host_resources());
  return out;
}

// Every metric the proposal names must be one the comparison has.
void check_metrics(const Proposal& p, Checker& c) {
  const auto check_metric = [&](const SourceLocation& at, const char* path,
                                const std::string& metric) {
    if (known_metric(metric)) return;
    c.error(at, path,
            fmt::format("unknown metric '{}'; the comparison's metrics are {}", metric,
                        known_metrics()));
  };
  for (const auto& counter : p.counters) {
    check_metric(counter.where, "counters.metric", counter.metric);
  }
  for (const auto& metric : p.rule.guard_metrics) {
    check_metric(p.rule.where, "rule.guard_metrics", metric);
  }
  check_metric(p.rule.where, "rule.primary", p.rule.primary);
}

// The smallest p the rank test can give on n sessions a side: 2 / C(2n, n).
double smallest_p(std::uint32_t n) {
  double ways = 1;  // C(2n, n)
  for (std::uint32_t i = 1; i <= n; ++i) ways = ways * (n + i) / i;
  return 2 / ways;
}

// With too few sessions nothing could ever clear the rule, and the run would be spent for a
// certain "inconclusive".
void check_sessions(const Proposal& p, Checker& c) {
  if (smallest_p(p.sessions) <= p.rule.fdr) return;
  std::uint32_t enough = p.sessions;
  while (smallest_p(enough) > p.rule.fdr) ++enough;
  c.error(p.sessions_where.line > 0 ? p.sessions_where : p.rule.where, "sessions",
          fmt::format("with {} sessions a side the rank test's smallest p is {:.3g}, above the "
                      "rule's fdr {}: nothing could be decided; give at least {} sessions",
                      p.sessions, smallest_p(p.sessions), p.rule.fdr, enough));
}

// The cells are named by the matrix's axes, and a process worker's parameter axes are known
// once it has described itself: the baseline's build is asked here (each side's again later).
// The matrix as declared by the baseline, or none with the diagnostics that say why.
std::optional<Matrix> declared_matrix(const Proposal& p, const Matrix& undeclared, Checker& c,
                                      std::vector<Diagnostic>& diagnostics) {
  Matrix m = undeclared;
  if (m.workload.kind == kProcessKind && !p.baseline.command.empty()) {
    m.workload.command = p.baseline.command;
  }
  for (auto& d : declare_process_worker(m)) diagnostics.push_back(std::move(d));
  if (!diagnostics.empty()) return std::nullopt;
  if (m.oracle) {
    c.error(p.matrix_where, "matrix",
            fmt::format("{} runs its own oracle pass (oracle: {}) in every session; a proposal "
                        "runs each side's once, before the sessions (baseline.oracle, "
                        "candidate.oracle): name a matrix without 'oracle:'",
                        p.matrix, *m.oracle));
  }
  return m;
}

// Which trace modes the proposal's runs have.
struct ModesRun {
  bool traced = false, counted = false, full = false;
};

// The accepting cells: those the rule names, else every measured point untraced (a traced mode's
// throughput carries its observer; its counters are read beside it, decide.h).
ModesRun accepting_cells(const Plan& plan, const ParsedFilters& accept_filters,
                         std::set<std::string>& accept_cells) {
  ModesRun modes;
  for (const Run& run : plan.runs) {
    if (run.trace == TraceMode::light || run.trace == TraceMode::full) modes.traced = true;
    if (run.trace == TraceMode::full) modes.full = true;
    if (run.trace == TraceMode::counted) modes.counted = true;
    bool accepting = !accept_filters.filters.empty() || run.trace == TraceMode::baseline;
    for (const OnlyFilter& f : accept_filters.filters) {
      // The run's value on the filter's axis; an implicit baseline has none on the trace axis.
      const std::uint16_t value =
          f.axis != Axis::trace ? plan.blocks[run.block].point[static_cast<std::size_t>(f.axis)]
          : run.implicit        ? kAbsent
                         : plan.cells[run.cell].values[static_cast<std::size_t>(Axis::trace)];
      if (std::find(f.values.begin(), f.values.end(), value) == f.values.end()) accepting = false;
    }
    if (accepting) accept_cells.insert(cell_id(plan, run));
  }
  return modes;
}

// A metric only some trace modes measure needs such a mode among the proposal's cells.
void check_modes_measure(const Proposal& p, const ModesRun& modes, Checker& c) {
  // Instructions and allocation calls are counted only by counted runs (docs/trace-modes.md,
  // "counted").
  const auto needs_counted = [&](const SourceLocation& at, const char* path,
                                 const std::string& metric) {
    if (!compare::is_counted_metric(metric) || modes.counted) return;
    c.error(at, path,
            fmt::format("{} is counted only in the counted trace mode, and the proposal's "
                        "cells have none: add it to 'only: {{trace: ...}}' (and, for the primary, "
                        "to 'rule.accept_cells')",
                        metric));
  };
  needs_counted(p.rule.where, "rule.primary", p.rule.primary);
  for (const auto& counter : p.counters) {
    needs_counted(counter.where, "counters.metric", counter.metric);
    if (counter.metric.starts_with("counter:") && !modes.full) {
      c.error(counter.where, "counters.metric",
              fmt::format("{} is a jb_counter, recorded only in the full trace mode, and the "
                          "proposal's cells have none: add it to 'only: {{trace: ...}}'",
                          counter.metric));
    } else if (needs_traced_mode(counter.metric) && !modes.traced) {
      c.error(counter.where, "counters.metric",
              fmt::format("{} is counted only in the light and full trace modes, and the "
                          "proposal's cells have neither: add one to 'only: {{trace: ...}}'",
                          counter.metric));
    }
  }
}

}  // namespace

std::optional<ResolvedProposal> resolve_proposal(const Proposal& p,
                                                 std::vector<Diagnostic>& diagnostics) {
  Checker c{diagnostics};
  const std::string base_dir = fs::path(p.file).parent_path().string();
  const std::string dir = base_dir.empty() ? "." : base_dir;
  check_metrics(p, c);
  const std::string matrix_path = relative_to(dir, p.matrix);
  if (!fs::is_regular_file(matrix_path)) {
    c.error(p.matrix_where, "matrix", fmt::format("{} is not a file", matrix_path));
    return std::nullopt;
  }
  check_sessions(p, c);
  LoadedMatrix loaded = load_matrix_file(matrix_path);
  if (!loaded.matrix) {
    for (auto& d : loaded.diagnostics) diagnostics.push_back(std::move(d));
    return std::nullopt;
  }
  const auto m = declared_matrix(p, *loaded.matrix, c, diagnostics);
  if (!m) return std::nullopt;
  // `only` and the accepting cells are read as --only is, with its checks and suggestions.
  ParsedFilters filters = parse_only_filters(only_arguments(p.only), *m);
  for (const auto& e : filters.errors) c.error(p.only_where, "only", e);
  ParsedFilters accept_filters = parse_only_filters(only_arguments(p.rule.accept_cells), *m);
  for (const auto& e : accept_filters.errors) c.error(p.rule.where, "rule.accept_cells", e);
  if (!diagnostics.empty()) return std::nullopt;

  ResolvedProposal r;
  r.proposal = p;
  r.rule_sha256 = rule_sha256(p);
  r.seed = p.seed.value_or(m->seed);
  const Matrix& undeclared = *loaded.matrix;
  auto baseline =
      resolve_side(c, p.baseline, "baseline", dir, undeclared, filters.filters, r.rule_sha256);
  auto candidate =
      resolve_side(c, p.candidate, "candidate", dir, undeclared, filters.filters, r.rule_sha256);
  if (!baseline || !candidate) return std::nullopt;
  r.baseline = std::move(*baseline);
  r.candidate = std::move(*candidate);
  r.settings_differ = !p.baseline.params.empty() || !p.candidate.params.empty();
  r.builds_differ = p.baseline.worker_dir.has_value() || p.candidate.worker_dir.has_value() ||
                    !p.baseline.command.empty() || !p.candidate.command.empty();
  const Plan& plan = r.baseline.plan;
  const ModesRun modes = accepting_cells(plan, accept_filters, r.accept_cells);
  if (plan.runs.empty()) {
    c.error(p.only_where, "only", "the proposal's cells select no run of the matrix");
  } else if (r.accept_cells.empty()) {
    c.error(p.rule.where, "rule.accept_cells", "no measured cell is an accepting cell");
  }
  check_modes_measure(p, modes, c);
  if (!diagnostics.empty()) return std::nullopt;
  return r;
}

}  // namespace jbench::propose
