// Decodes `axes:`: the values of each axis, unique and in range, and the size of the product.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "decode_parts.h"
#include "jbench/common/text.h"
#include "jbench/matrix/param_override.h"
#include "jbench/matrix/workload_kinds.h"

namespace jbench::decode {
namespace {

constexpr std::size_t kMaxDatasets = 256;

// Records a label, or reports it as a duplicate of an earlier one.
void add_label(Context& ctx, const yaml::Node& at, const std::string& path, AxisValues& axis,
               std::string label) {
  for (std::size_t i = 0; i < axis.labels.size(); ++i) {
    if (axis.labels[i] == label) {
      ctx.error(at, path,
                fmt::format("duplicate value '{}' (first at line {}, column {})", label,
                            axis.where[i].line, axis.where[i].column));
      return;
    }
  }
  axis.labels.push_back(std::move(label));
  axis.where.push_back(ctx.where(at));
}

// A parameter axis's labels name runs and their folders (w1.cold.writer.small.opt=10.baseline.r1).
bool id_safe(std::string_view label) {
  return !label.empty() && std::all_of(label.begin(), label.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '+' ||
           c == '.';
  });
}

// One parameter axis into the next free slot: its values checked against the spec (when the
// kind is known), unique, and fit to name runs.
void decode_param_axis(Context& ctx, const yaml::MapEntry& entry, const ParamSpec* spec,
                       AxisValues& axis) {
  const std::string path = join_path("axes", entry.key.scalar);
  const yaml::Node& node = entry.value;
  if (!ctx.is_sequence(node, path)) return;
  if (node.items.empty()) {
    ctx.error(node, path, "an axis needs at least one value");
    return;
  }
  axis.declared = true;
  axis.param = entry.key.scalar;
  for (std::size_t i = 0; i < node.items.size(); ++i) {
    const auto& item = node.items[i];
    const auto item_path = index_path(path, i);
    std::optional<ParamValue> value;
    if (spec) {
      value = decode_param_value(ctx, item, item_path, *spec);
    } else if (auto text = ctx.string(item, item_path)) {
      value = *text;
    }
    if (!value) continue;
    std::string label = param_value_text(*value);
    if (!id_safe(label)) {
      ctx.error(item, item_path,
                fmt::format("'{}' cannot name a run: an axis value holds letters, digits and "
                            "'_', '-', '+', '.' only",
                            label));
      continue;
    }
    const auto before = axis.labels.size();
    add_label(ctx, item, item_path, axis, std::move(label));
    if (axis.labels.size() > before) axis.values.push_back(std::move(*value));
  }
}

void decode_workers(Context& ctx, const yaml::Node& item, const std::string& path, Matrix& m) {
  if (auto v = ctx.integer(item, path, 1, 1024)) {
    const auto before = m.axis(Axis::workers).labels.size();
    add_label(ctx, item, path, m.axis(Axis::workers), std::to_string(*v));
    if (m.axis(Axis::workers).labels.size() > before) m.workers.push_back(std::uint32_t(*v));
  }
}

void decode_dataset(Context& ctx, const yaml::Node& item, const std::string& path, Matrix& m) {
  constexpr std::array<std::string_view, 5> kKeys = {"name", "rows", "row_bytes", "page_cache_kib",
                                                     "description"};
  Fields fields(ctx, item, path, kKeys);
  if (!fields.valid()) return;
  Dataset d;
  bool ok = true;
  const auto take = [&](std::string_view key, std::uint64_t min, std::uint64_t max) {
    const auto* n = fields.required(key);
    auto v = n ? ctx.integer(*n, fields.path(key), min, max) : std::nullopt;
    ok = ok && v.has_value();
    return v.value_or(0);
  };
  const auto* name = fields.required("name");
  auto name_value = name ? ctx.identifier(*name, fields.path("name")) : std::nullopt;
  ok = ok && name_value.has_value();
  d.rows = take("rows", 1, 1'000'000'000);
  d.row_bytes = static_cast<std::uint32_t>(take("row_bytes", 1, 1u << 20));
  d.page_cache_kib = take("page_cache_kib", 1, 1u << 24);
  if (const auto* n = fields.optional("description")) {
    if (auto v = ctx.string(*n, fields.path("description"))) d.description = *v;
  }
  if (!ok) return;
  d.name = *name_value;
  const auto before = m.axis(Axis::dataset).labels.size();
  add_label(ctx, *name, fields.path("name"), m.axis(Axis::dataset), d.name);
  if (m.axis(Axis::dataset).labels.size() > before) m.datasets.push_back(std::move(d));
}

void decode_axis(Context& ctx, Axis axis, const yaml::Node& node, Matrix& m) {
  const std::string path = join_path("axes", axis_name(axis));
  if (!ctx.is_sequence(node, path)) return;
  if (node.items.empty()) {
    ctx.error(node, path, "an axis needs at least one value");
    return;
  }
  if (axis == Axis::dataset && node.items.size() > kMaxDatasets) {
    ctx.error(node, path, fmt::format("at most {} dataset cells", kMaxDatasets));
    return;
  }
  m.axis(axis).declared = true;
  for (std::size_t i = 0; i < node.items.size(); ++i) {
    const auto& item = node.items[i];
    const auto item_path = index_path(path, i);
    switch (axis) {
      case Axis::workers:
        decode_workers(ctx, item, item_path, m);
        break;
      case Axis::dataset:
        decode_dataset(ctx, item, item_path, m);
        break;
      case Axis::connection:
        if (auto v = ctx.one_of(item, item_path, kConnectionValues)) {
          add_label(ctx, item, item_path, m.axis(axis), *v);
        }
        break;
      case Axis::lane:
        if (auto v = ctx.one_of(item, item_path, kLaneValues)) {
          add_label(ctx, item, item_path, m.axis(axis), *v);
        }
        break;
      case Axis::param1:
      case Axis::param2:
      case Axis::param3:
      case Axis::param4:
        break;  // decode_param_axis
      case Axis::trace:
        if (auto v = ctx.one_of(item, item_path, kTraceValues)) {
          const auto before = m.axis(axis).labels.size();
          add_label(ctx, item, item_path, m.axis(axis), *v);
          if (m.axis(axis).labels.size() > before)
            m.trace_modes.push_back(*trace_mode_from_name(*v));
        }
        break;
    }
  }
}

// A key of `axes:` that is neither a built-in axis nor a parameter of the kind.
void report_unknown_axis(Context& ctx, const yaml::Node& key, const WorkloadKind& kind) {
  std::vector<std::string_view> known;
  for (auto a : kBuiltinAxes) known.push_back(axis_name(a));
  for (const auto& spec : kind.params) known.push_back(spec.key);
  std::string message = fmt::format("'{}' is neither an axis nor a parameter of the workload '{}'",
                                    key.scalar, kind.name);
  if (auto guess = closest_match(key.scalar, known)) {
    message += fmt::format(" (did you mean '{}'?)", *guess);
  }
  ctx.error(key, join_path("axes", key.scalar),
            message + fmt::format("; expected {}", join_alternatives(known)));
}

}  // namespace

void decode_param_axes(Context& ctx, const yaml::Node& axes, const WorkloadKind* kind, Matrix& m) {
  for (std::size_t slot = 0; slot < kParamAxisSlots; ++slot) m.axis(param_axis(slot)) = {};
  std::size_t slot = 0;
  for (const auto& entry : axes.entries) {
    if (axis_from_name(entry.key.scalar)) continue;
    const ParamSpec* spec = kind ? find_param(*kind, entry.key.scalar) : nullptr;
    if (kind && !spec) {
      report_unknown_axis(ctx, entry.key, *kind);
      continue;
    }
    if (slot == kParamAxisSlots) {
      ctx.error(entry.key, join_path("axes", entry.key.scalar),
                fmt::format("at most {} parameters may be axes", kParamAxisSlots));
      return;
    }
    decode_param_axis(ctx, entry, spec, m.axis(param_axis(slot++)));
  }
}

void decode_axes(Context& ctx, const yaml::Node& axes, Matrix& m) {
  // The built-in axes, then the parameters of the kind: any of them may be an axis. Every other
  // key is a parameter axis, checked against the kind's parameters by decode_param_axes (a
  // process worker's once it has declared them).
  const auto* kind = find_workload_kind(m.workload.kind);
  const bool process = m.workload.kind == kProcessKind;
  std::vector<std::string_view> names;
  for (auto a : kBuiltinAxes) names.push_back(axis_name(a));
  if (axes.kind == yaml::Node::Kind::map) {
    for (const auto& entry : axes.entries) {
      if (!axis_from_name(entry.key.scalar)) names.push_back(entry.key.scalar);
    }
  }
  const std::size_t errors_before = ctx.error_count();
  {
    Fields fields(ctx, axes, "axes", names);
    if (!fields.valid()) return;
    for (auto a : kBuiltinAxes) {
      if (const auto* n = fields.optional(axis_name(a))) decode_axis(ctx, a, *n, m);
    }
    for (std::size_t i = kBuiltinAxes.size(); i < names.size(); ++i)
      (void)fields.optional(names[i]);
    // Without a kind (an unknown one, already reported) no parameter can be checked.
    if (kind || process) decode_param_axes(ctx, axes, kind, m);
  }
  // A process worker speaks the protocol every kind speaks: it is sent the same four values.
  if (kind || process) {
    const auto& needed = kind ? kind->requires_axis : kProtocolAxes;
    for (auto a : kBuiltinAxes) {
      if (needed[static_cast<std::size_t>(a)] && !axes.find(axis_name(a))) {
        ctx.error(
            axes, "axes",
            fmt::format("workload kind '{}' needs the axis '{}'", m.workload.kind, axis_name(a)));
      }
    }
  }
  if (ctx.error_count() != errors_before) return;

  // A matrix without a trace axis measures untraced runs only.
  if (!m.axis(Axis::trace).declared) {
    m.axis(Axis::trace).labels = {std::string(trace_mode_name(TraceMode::baseline))};
    m.axis(Axis::trace).where = {ctx.where(axes)};
    m.trace_modes = {TraceMode::baseline};
  }

  // Bound the product before anything enumerates it.
  std::uint64_t cells = 1;
  for (auto a : kAllAxes) {
    if (!m.axis(a).labels.empty()) cells *= m.axis(a).labels.size();
  }
  const bool implicit_baseline = std::find(m.trace_modes.begin(), m.trace_modes.end(),
                                           TraceMode::baseline) == m.trace_modes.end();
  const std::uint64_t modes = m.trace_modes.size();
  const std::uint64_t runs = cells / modes * (modes + (implicit_baseline ? 1 : 0)) * m.repetitions;
  if (cells > kMaxCells) {
    ctx.error(axes, "axes",
              fmt::format("the axes make {} cells; the limit is {}", cells, kMaxCells));
  } else if (runs > kMaxRuns) {
    ctx.error(axes, "axes",
              fmt::format("the axes and {} repetitions make up to {} runs; the limit is {}",
                          m.repetitions, runs, kMaxRuns));
  }
}

}  // namespace jbench::decode
