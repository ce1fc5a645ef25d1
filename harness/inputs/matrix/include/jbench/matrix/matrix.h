// The Matrix: a decoded, validated experiment description (matrix language v1).
//
// Everything here has already passed validation: axis values are non-empty and unique, numbers
// are in range, exclude rules name real values and each excludes at least one cell. Locations
// are kept so later stages (plan, run) can point back at the line that caused a decision.
// The language is documented in docs/matrix.md.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "jbench/common/diagnostic.h"
#include "jbench/common/trace_mode.h"

namespace jbench {

// The axes of language v1, in their canonical order (the order of nested loops, of ids and of
// the axis table). The four param slots are the workload parameters a matrix sweeps as axes
// (`axes: {ops_per_transaction: [1, 10]}`), in the order `axes:` names them; a slot no parameter
// takes has no labels and is absent from every cell. Trace stays last: it is the innermost loop.
enum class Axis : std::uint8_t {
  workers,
  connection,
  lane,
  dataset,
  param1,
  param2,
  param3,
  param4,
  trace
};
inline constexpr std::size_t kAxisCount = 9;
inline constexpr std::size_t kParamAxisSlots = 4;
inline constexpr std::array<Axis, kAxisCount> kAllAxes = {
    Axis::workers, Axis::connection, Axis::lane,   Axis::dataset, Axis::param1,
    Axis::param2,  Axis::param3,     Axis::param4, Axis::trace};
// The axes every matrix may name by their own names.
inline constexpr std::array<Axis, 5> kBuiltinAxes = {Axis::workers, Axis::connection, Axis::lane,
                                                     Axis::dataset, Axis::trace};

constexpr bool is_param_axis(Axis a) { return a >= Axis::param1 && a <= Axis::param4; }
constexpr Axis param_axis(std::size_t slot) {
  return static_cast<Axis>(static_cast<std::size_t>(Axis::param1) + slot);
}

// A built-in axis's name ("param1".."param4" for the slots: Matrix::axis_name names what a
// matrix put there).
std::string_view axis_name(Axis axis);
// A built-in axis by its name; parameter axes are found through Matrix::find_axis.
std::optional<Axis> axis_from_name(std::string_view name);

// The accepted values of the enumerated axes, in their documented order.
inline constexpr std::array<std::string_view, 2> kConnectionValues = {"cold", "persistent"};
inline constexpr std::array<std::string_view, 3> kLaneValues = {"writer", "reader", "mixed"};

// A dataset cell: the data a run starts from. page_cache_kib against the database's size decides
// whether the cell sits below or above the page-cache retention threshold (measured at run time).
struct Dataset {
  std::string name;
  std::uint64_t rows = 0;
  std::uint32_t row_bytes = 0;
  std::uint64_t page_cache_kib = 0;
  std::string description;
};

// std::monostate is "none": the value of an optional parameter whose default is absence (the
// SQLite plant_fsync_file). Such a parameter is sent to no worker and shown in no `params`.
using ParamValue = std::variant<std::int64_t, double, std::string, std::monostate>;

// One axis: its values as labels (what --only and ids use) in declared order.
// An axis a matrix does not declare has `declared == false`; for `trace` the plan then behaves
// as if it were [baseline]; other undeclared axes are absent from every cell.
// A parameter axis also names its parameter and keeps each label's typed value (the label is
// the value's text, param_value_text).
struct AxisValues {
  bool declared = false;
  std::vector<std::string> labels;
  std::vector<SourceLocation> where;  // one per label
  std::string param;                  // param slots: the parameter swept
  std::vector<ParamValue> values;     // param slots: one per label
};

struct Phase {
  enum class Kind : std::uint8_t { duration, operations };
  Kind kind = Kind::duration;
  std::uint64_t amount = 0;  // milliseconds (duration) or operations
};

struct Limits {
  std::uint32_t max_workers = 0;
  std::uint32_t run_timeout_s = 0;
  std::uint64_t output_mib = 0;
  std::optional<std::uint32_t> memory_per_worker_mib;  // checked against the host's memory
  std::optional<std::uint32_t> workers_per_core;       // checked against the host's cores
  // The most the bundle keeps of binaries, debug files and symbol maps (docs/bundle.md); what
  // does not fit is named, not kept. Fractions of a MiB are allowed; 0 keeps nothing.
  double provenance_mib = 512;
  std::uint64_t provenance_bytes() const {
    return static_cast<std::uint64_t>(provenance_mib * 1024.0 * 1024.0);
  }
};

// An exclude rule: a cell is excluded when, for every axis the rule names, the cell's value is
// one of the rule's values. Values are indices into that axis's labels; an empty list = any.
struct ExcludeRule {
  std::array<std::vector<std::uint16_t>, kAxisCount> values;
  SourceLocation where;
  bool names(Axis axis) const { return !values[static_cast<std::size_t>(axis)].empty(); }
};

// How the trace modes of a block are ordered. `balanced` (the default) is a seeded order in which,
// over each run of k repetitions of a point (k its modes), every mode takes every position once:
// whatever the position in a block does to a run (the previous block's writeback, a warming
// cache) then falls on every mode alike, where independent shuffles leave some mode first in
// most blocks of a short matrix. `shuffled` shuffles each block on its own; `declared` keeps the
// matrix's order.
enum class ModeOrder : std::uint8_t { balanced, shuffled, declared };

struct Ordering {
  bool shuffle_blocks = true;  // blocks in a seeded random order, else in declared order
  ModeOrder modes = ModeOrder::balanced;
  std::uint64_t seed = 0;  // defaults to the matrix seed
};

const char* to_string(ModeOrder order);

// Collector settings a matrix may change (`collectors:`); unset means the trace mode's default
// (docs/trace-modes.md).
struct CollectorSettings {
  // The allocation sampler's mean interval between samples, in bytes, per traced mode.
  std::optional<std::uint64_t> alloc_mean_bytes_light;
  std::optional<std::uint64_t> alloc_mean_bytes_full;
  // The syscall collector's backend (docs/collectors/syscall.md): "" = the best this host runs.
  std::string syscall_backend;
  // The counter of counted runs (docs/trace-modes.md, "counted"): "" = the processor's where
  // perf_event_open opens it, else callgrind.
  std::string counter_backend;
};

// The counters a matrix or the command line may name for counted runs.
inline constexpr std::array<std::string_view, 2> kCounterBackends = {"perf", "callgrind"};

// The backends a matrix or the command line may name.
inline constexpr std::array<std::string_view, 4> kSyscallBackends = {"libbpf", "bpftrace", "dtrace",
                                                                     "strace"};

// A matrix value replaced from the command line (e.g. --repetitions), kept so the bundle says
// that what ran is not exactly what the file says.
struct MatrixOverride {
  std::string key;         // the matrix key, e.g. "repetitions"
  std::string file_value;  // as the file had it (or its default)
  std::string value;       // what was used
  std::string by;          // the option that set it, e.g. "--repetitions"
};

struct Param {
  std::string key;
  ParamValue value;
  bool defaulted = false;  // filled from the workload kind's default, not written in the file
};

// Calls fn(value) for a parameter that has a value, and nothing for none: what the plan shows and
// what a worker is sent (`with_value(p, [&](const auto& v) { params[p.key] = v; })`).
template <typename Fn>
void with_value(const Param& p, Fn&& fn) {
  std::visit(
      [&](const auto& v) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) fn(v);
      },
      p.value);
}

class WorkerDeclaration;  // worker_declaration.h

// The kind a matrix names for an outside program that speaks the worker protocol.
inline constexpr std::string_view kProcessKind = "process";

struct Workload {
  std::string kind;
  std::vector<Param> params;  // every parameter of the kind, in its documented order
  // Kind "process": the worker's program and arguments (a program path with a '/' made absolute
  // against the matrix file's folder), and what it declared of itself once asked
  // (worker_declaration.h); until then `params` is empty.
  std::vector<std::string> command;
  std::shared_ptr<const WorkerDeclaration> declaration;
};

struct Matrix {
  std::string file;         // as given on the command line
  std::string sha256;       // of the file's bytes
  std::string source_text;  // the file as given, so a bundle can carry the matrix verbatim
  std::uint32_t language_version = 1;
  std::string name;
  std::string description;
  std::uint64_t seed = 0;
  std::uint32_t repetitions = 1;
  Workload workload;
  Phase warmup;
  Phase measure;
  Limits limits;
  std::array<AxisValues, kAxisCount> axes;
  std::vector<std::uint32_t> workers;  // numeric values of the workers axis, same order
  std::vector<Dataset> datasets;       // the dataset axis's cells, same order
  std::vector<TraceMode> trace_modes;  // the trace axis's modes, same order
  std::vector<ExcludeRule> excludes;
  // `oracle:`: an oracle matrix (oracle_matrix.h), as written, relative to this file; `jbench
  // run` runs that correctness pass first and records it in the bundle, and a bundle without a
  // passing record is unproven (docs/oracle.md).
  std::optional<std::string> oracle;
  Ordering ordering;
  CollectorSettings collectors;
  std::vector<MatrixOverride> overrides;  // empty: everything as the file says

  const AxisValues& axis(Axis a) const { return axes[static_cast<std::size_t>(a)]; }
  AxisValues& axis(Axis a) { return axes[static_cast<std::size_t>(a)]; }
  // An axis's name in this matrix: a built-in axis's own, or the parameter a slot sweeps.
  std::string_view axis_name(Axis a) const;
  // A declared axis by the name `axes:` gives it, built-in or parameter.
  std::optional<Axis> find_axis(std::string_view axis_or_param) const;
  // The parameter axis sweeping `key`, if any.
  std::optional<Axis> param_axis_of(std::string_view key) const;
};

}  // namespace jbench
