// Decodes the top level of a matrix file and its small sections (workload, phases, limits,
// order); the axes and exclude rules have files of their own.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>

#include "decode_parts.h"
#include "jbench/common/file_name.h"
#include "jbench/common/text.h"
#include "jbench/matrix/workload_kinds.h"

namespace jbench::decode {
namespace {

constexpr std::array<std::string_view, 13> kMatrixKeys = {
    "version", "name", "description", "seed",  "repetitions", "workload", "phases",
    "limits",  "axes", "exclude",     "order", "collectors",  "oracle"};

void decode_workload(Context& ctx, const yaml::Node& node, Matrix& m) {
  const auto* kind_node = node.find("kind");
  const bool process =
      kind_node && kind_node->kind == yaml::Node::Kind::scalar && kind_node->scalar == kProcessKind;
  constexpr std::array<std::string_view, 2> kKeys = {"kind", "params"};
  constexpr std::array<std::string_view, 3> kProcessKeys = {"kind", "command", "params"};
  Fields fields(ctx, node, "workload",
                process ? std::span<const std::string_view>(kProcessKeys)
                        : std::span<const std::string_view>(kKeys));
  if (!fields.required("kind")) return;
  if (process) {
    m.workload.kind = std::string(kProcessKind);
    if (const auto* command = fields.required("command")) {
      m.workload.command = ctx.command(*command, fields.path("command"),
                                       std::filesystem::path(m.file).parent_path().string());
    }
    // Checked once the worker has said which it takes (declare_workload).
    if (const auto* params = fields.optional("params")) {
      (void)ctx.is_map(*params, fields.path("params"));
    }
    return;
  }
  std::vector<std::string_view> names;
  for (const auto& k : workload_kinds()) names.push_back(k.name);
  names.push_back(kProcessKind);
  auto kind_name = ctx.one_of(*kind_node, fields.path("kind"), names);
  if (!kind_name) {
    (void)fields.optional("params");  // its keys cannot be checked without a kind
    return;
  }
  m.workload.kind = *kind_name;
  // Decoded after the axes (decode_matrix): a parameter an axis sweeps has no single value.
  (void)fields.optional("params");
}

std::optional<Phase> decode_phase(Context& ctx, const yaml::Node& node, const std::string& path,
                                  std::uint64_t min) {
  constexpr std::array<std::string_view, 2> kKeys = {"duration_ms", "operations"};
  Fields fields(ctx, node, path, kKeys);
  if (!fields.valid()) return std::nullopt;
  const auto* duration = fields.optional("duration_ms");
  const auto* operations = fields.optional("operations");
  if ((duration == nullptr) == (operations == nullptr)) {
    ctx.error(node, path, "give exactly one of 'duration_ms' or 'operations'");
    return std::nullopt;
  }
  Phase phase;
  if (duration) {
    phase.kind = Phase::Kind::duration;
    auto v = ctx.integer(*duration, fields.path("duration_ms"), min, 86'400'000);
    if (!v) return std::nullopt;
    phase.amount = *v;
  } else {
    phase.kind = Phase::Kind::operations;
    auto v = ctx.integer(*operations, fields.path("operations"), min, 1'000'000'000'000);
    if (!v) return std::nullopt;
    phase.amount = *v;
  }
  return phase;
}

void decode_phases(Context& ctx, const yaml::Node& node, Matrix& m) {
  constexpr std::array<std::string_view, 2> kKeys = {"warmup", "measure"};
  Fields fields(ctx, node, "phases", kKeys);
  const auto* warmup = fields.required("warmup");
  const auto* measure = fields.required("measure");
  if (warmup) {
    if (auto p = decode_phase(ctx, *warmup, fields.path("warmup"), 0)) m.warmup = *p;
  }
  if (measure) {
    if (auto p = decode_phase(ctx, *measure, fields.path("measure"), 1)) m.measure = *p;
  }
}

void decode_limits(Context& ctx, const yaml::Node& node, Matrix& m) {
  constexpr std::array<std::string_view, 6> kKeys = {"max_workers",      "run_timeout_s",
                                                     "output_mib",       "memory_per_worker_mib",
                                                     "workers_per_core", "provenance_mib"};
  Fields fields(ctx, node, "limits", kKeys);
  auto read = [&](std::string_view key, std::uint64_t min, std::uint64_t max,
                  bool required) -> std::optional<std::uint64_t> {
    const auto* n = required ? fields.required(key) : fields.optional(key);
    return n ? ctx.integer(*n, fields.path(key), min, max) : std::nullopt;
  };
  if (auto v = read("max_workers", 1, 1024, true)) m.limits.max_workers = std::uint32_t(*v);
  if (auto v = read("run_timeout_s", 1, 86400, true)) m.limits.run_timeout_s = std::uint32_t(*v);
  if (auto v = read("output_mib", 1, 1u << 20, true)) m.limits.output_mib = *v;
  if (auto v = read("memory_per_worker_mib", 1, 1u << 20, false)) {
    m.limits.memory_per_worker_mib = std::uint32_t(*v);
  }
  if (auto v = read("workers_per_core", 1, 1024, false))
    m.limits.workers_per_core = std::uint32_t(*v);
  if (const auto* n = fields.optional("provenance_mib")) {
    if (auto v = ctx.number(*n, fields.path("provenance_mib"), 0, 1u << 20)) {
      m.limits.provenance_mib = *v;
    }
  }
}

void decode_order(Context& ctx, const yaml::Node& node, Matrix& m) {
  constexpr std::array<std::string_view, 3> kKeys = {"blocks", "modes", "seed"};
  constexpr std::array<std::string_view, 2> kOrders = {"shuffled", "declared"};
  constexpr std::array<std::string_view, 3> kModeOrders = {"balanced", "shuffled", "declared"};
  Fields fields(ctx, node, "order", kKeys);
  if (const auto* n = fields.optional("blocks")) {
    if (auto v = ctx.one_of(*n, fields.path("blocks"), kOrders)) {
      m.ordering.shuffle_blocks = (*v == "shuffled");
    }
  }
  if (const auto* n = fields.optional("modes")) {
    if (auto v = ctx.one_of(*n, fields.path("modes"), kModeOrders)) {
      m.ordering.modes = *v == "balanced"   ? ModeOrder::balanced
                         : *v == "shuffled" ? ModeOrder::shuffled
                                            : ModeOrder::declared;
    }
  }
  if (const auto* n = fields.optional("seed")) {
    if (auto v =
            ctx.integer(*n, fields.path("seed"), 0, std::numeric_limits<std::uint64_t>::max())) {
      m.ordering.seed = *v;
    }
  }
}

// collectors: {syscall: {backend: NAME}} -- the syscall collector's backend, every traced run;
// collectors: {counter: {backend: NAME}} -- the instructions counter of counted runs.
void decode_backend(Context& ctx, const yaml::Node& node, std::string path,
                    std::span<const std::string_view> backends, std::string& into) {
  constexpr std::array<std::string_view, 1> kKeys = {"backend"};
  Fields fields(ctx, node, std::move(path), kKeys);
  if (const auto* n = fields.optional("backend")) {
    if (auto v = ctx.one_of(*n, fields.path("backend"), backends)) into = *v;
  }
}

// collectors: {alloc: {mean_interval_bytes: {light: N, full: N}}} -- the allocation sampler's
// mean interval per traced mode (the preload library accepts 1 byte .. 1 TiB).
void decode_collectors(Context& ctx, const yaml::Node& node, Matrix& m) {
  constexpr std::array<std::string_view, 3> kKeys = {"alloc", "syscall", "counter"};
  Fields fields(ctx, node, "collectors", kKeys);
  if (const auto* syscall = fields.optional("syscall")) {
    decode_backend(ctx, *syscall, fields.path("syscall"), kSyscallBackends,
                   m.collectors.syscall_backend);
  }
  if (const auto* counter = fields.optional("counter")) {
    decode_backend(ctx, *counter, fields.path("counter"), kCounterBackends,
                   m.collectors.counter_backend);
  }
  const auto* alloc = fields.optional("alloc");
  if (!alloc) return;
  constexpr std::array<std::string_view, 1> kAllocKeys = {"mean_interval_bytes"};
  Fields alloc_fields(ctx, *alloc, fields.path("alloc"), kAllocKeys);
  const auto* interval = alloc_fields.optional("mean_interval_bytes");
  if (!interval) return;
  constexpr std::array<std::string_view, 2> kModes = {"light", "full"};
  Fields modes(ctx, *interval, alloc_fields.path("mean_interval_bytes"), kModes);
  constexpr std::uint64_t kMax = std::uint64_t{1} << 40;
  if (const auto* n = modes.optional("light")) {
    m.collectors.alloc_mean_bytes_light = ctx.integer(*n, modes.path("light"), 1, kMax);
  }
  if (const auto* n = modes.optional("full")) {
    m.collectors.alloc_mean_bytes_full = ctx.integer(*n, modes.path("full"), 1, kMax);
  }
}

// Checks that span sections: they need values from several places of the file.
void check_consistency(Context& ctx, const yaml::Node& root, Matrix& m) {
  const auto timed = [](const Phase& p) { return p.kind == Phase::Kind::duration ? p.amount : 0; };
  const std::uint64_t phase_ms = timed(m.warmup) + timed(m.measure);
  if (m.limits.run_timeout_s > 0 && phase_ms >= std::uint64_t{m.limits.run_timeout_s} * 1000) {
    if (const auto* phases = root.find("phases")) {
      ctx.error(*phases, "phases",
                fmt::format("warmup + measure last {} ms, which leaves no time within "
                            "limits.run_timeout_s ({} s); raise the timeout or shorten the phases",
                            phase_ms, m.limits.run_timeout_s));
    }
  }
  const auto& lanes = m.axis(Axis::lane).labels;
  if (std::find(lanes.begin(), lanes.end(), "mixed") == lanes.end()) return;
  const auto check_ratio = [&](const ParamValue& value, const yaml::Node& at,
                               const std::string& path) {
    const auto* ratio = std::get_if<double>(&value);
    if (!ratio || (*ratio > 0.0 && *ratio < 1.0)) return;
    ctx.error(at, path,
              fmt::format("the mixed lane needs reads and writes, so read_ratio must be "
                          "strictly between 0 and 1 (is {})",
                          *ratio));
  };
  const auto* workload = root.find("workload");
  const auto* params = workload ? workload->find("params") : nullptr;
  for (const auto& p : m.workload.params) {
    if (p.key != "read_ratio") continue;
    const auto* at = params && params->find("read_ratio") ? params->find("read_ratio") : &root;
    check_ratio(p.value, *at, "workload.params.read_ratio");
  }
  if (const auto a = m.param_axis_of("read_ratio")) {
    const auto* axis = root.find("axes") ? root.find("axes")->find("read_ratio") : nullptr;
    const auto& values = m.axis(*a).values;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const bool located = axis && i < axis->items.size();
      check_ratio(values[i], located ? axis->items[i] : root, index_path("axes.read_ratio", i));
    }
  }
}

}  // namespace

std::optional<ParamValue> decode_param_value(Context& ctx, const yaml::Node& n,
                                             const std::string& path, const ParamSpec& spec) {
  switch (spec.type) {
    case ParamSpec::Type::integer:
      if (auto v = ctx.integer(n, path, static_cast<std::uint64_t>(spec.min),
                               static_cast<std::uint64_t>(spec.max))) {
        return static_cast<std::int64_t>(*v);
      }
      break;
    case ParamSpec::Type::number:
      if (auto v = ctx.number(n, path, spec.min, spec.max)) return *v;
      break;
    case ParamSpec::Type::choice:
      if (auto v = ctx.one_of(n, path, spec.choices)) return *v;
      break;
    case ParamSpec::Type::file_name:
      if (auto v = ctx.string(n, path)) {
        if (const Status plain = check_plain_file_name(*v); !plain) {
          ctx.error(n, path, fmt::format("not a plain file name: {}", plain.error().message));
        } else {
          return *v;
        }
      }
      break;
  }
  return std::nullopt;
}

void decode_params(Context& ctx, const yaml::Node* params, const WorkloadKind& kind, Matrix& m) {
  std::vector<std::string_view> known;
  for (const auto& spec : kind.params) known.push_back(spec.key);
  static const yaml::Node kEmpty = [] {
    yaml::Node n;
    n.kind = yaml::Node::Kind::map;
    return n;
  }();
  Fields fields(ctx, params ? *params : kEmpty, "workload.params", known);
  for (const auto& spec : kind.params) {
    const auto* n = fields.optional(spec.key);
    if (m.param_axis_of(spec.key)) {
      // Swept: every cell has its own value, sent with the cell's other values.
      if (n) {
        ctx.error(*n, fields.path(spec.key),
                  fmt::format("'{}' is an axis of this matrix (axes.{}); give its values there "
                              "only",
                              spec.key, spec.key));
      }
      continue;
    }
    Param p{std::string(spec.key), spec.default_value, true};
    if (n) {
      p.defaulted = false;
      if (auto v = decode_param_value(ctx, *n, fields.path(spec.key), spec)) p.value = *v;
    }
    m.workload.params.push_back(std::move(p));
  }
}

void decode_matrix(Context& ctx, const yaml::Node& root, Matrix& m) {
  Fields fields(ctx, root, "", kMatrixKeys);
  if (!fields.valid()) return;

  if (const auto* n = fields.required("version")) {
    if (n->kind == yaml::Node::Kind::scalar && !n->quoted && n->scalar != "1" &&
        n->scalar.find_first_not_of("0123456789") == std::string::npos) {
      ctx.error(*n, "version",
                fmt::format("matrix language version {} is not supported; this jbench reads "
                            "version 1",
                            n->scalar));
    } else if (auto v = ctx.integer(*n, "version", 1, 1)) {
      m.language_version = static_cast<std::uint32_t>(*v);
    }
  }
  if (const auto* n = fields.required("name")) {
    if (auto v = ctx.identifier(*n, "name")) m.name = *v;
  }
  if (const auto* n = fields.optional("description")) {
    if (auto v = ctx.string(*n, "description")) m.description = *v;
  }
  if (const auto* n = fields.required("seed")) {
    if (auto v = ctx.integer(*n, "seed", 0, std::numeric_limits<std::uint64_t>::max())) m.seed = *v;
  }
  m.ordering.seed = m.seed;
  if (const auto* n = fields.optional("repetitions")) {
    if (auto v = ctx.integer(*n, "repetitions", 1, 1000)) {
      m.repetitions = static_cast<std::uint32_t>(*v);
    }
  }
  if (const auto* n = fields.required("workload")) decode_workload(ctx, *n, m);
  if (const auto* n = fields.required("phases")) decode_phases(ctx, *n, m);
  if (const auto* n = fields.required("limits")) decode_limits(ctx, *n, m);
  if (const auto* n = fields.optional("order")) decode_order(ctx, *n, m);
  if (const auto* n = fields.optional("collectors")) decode_collectors(ctx, *n, m);
  // oracle: <oracle matrix file>, relative to this one: the correctness pass the runs stand on.
  if (const auto* n = fields.optional("oracle")) {
    if (auto v = ctx.string(*n, "oracle")) {
      if (v->empty()) {
        ctx.error(*n, "oracle", "name the oracle matrix file, e.g. oracle: oracle.yaml");
      } else {
        m.oracle = *v;
      }
    }
  }

  const std::size_t errors_before_axes = ctx.error_count();
  if (const auto* n = fields.required("axes")) decode_axes(ctx, *n, m);
  if (const auto* kind = find_workload_kind(m.workload.kind)) {
    const auto* workload = root.find("workload");
    decode_params(ctx, workload ? workload->find("params") : nullptr, *kind, m);
  }
  const bool axes_ok = ctx.error_count() == errors_before_axes && root.find("axes");
  if (const auto* n = fields.optional("exclude")) {
    // Rules name axis values: without sound axes every rule would report a second,
    // misleading error.
    if (axes_ok) decode_excludes(ctx, *n, m);
  }
  check_consistency(ctx, root, m);
}

}  // namespace jbench::decode
