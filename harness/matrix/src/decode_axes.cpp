// Decodes `axes:`: the values of each axis, unique and in range, and the size of the product.
#include <fmt/format.h>

#include <algorithm>

#include "decode_parts.h"
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

}  // namespace

void decode_axes(Context& ctx, const yaml::Node& axes, Matrix& m) {
  std::array<std::string_view, kAxisCount> names{};
  for (auto a : kAllAxes) names[static_cast<std::size_t>(a)] = axis_name(a);
  const std::size_t errors_before = ctx.error_count();
  {
    Fields fields(ctx, axes, "axes", names);
    if (!fields.valid()) return;
    for (auto a : kAllAxes) {
      if (const auto* n = fields.optional(axis_name(a))) decode_axis(ctx, a, *n, m);
    }
  }
  // A process worker speaks the protocol every kind speaks: it is sent the same four values.
  const auto* kind = find_workload_kind(m.workload.kind);
  if (kind || m.workload.kind == kProcessKind) {
    const auto& needed = kind ? kind->requires_axis : kProtocolAxes;
    for (auto a : kAllAxes) {
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
