// Decodes `exclude:` rules and proves each one matters: a rule that excludes no cell beyond
// what earlier rules exclude is an error (it is almost always a typo or a stale rule), and so is
// a rule that removes a cell's baseline while traced runs of that cell stay (they would have no
// untraced run to be compared with).
#include <fmt/format.h>

#include <algorithm>

#include "decode_parts.h"
#include "jbench/matrix/param_override.h"
#include "jbench/matrix/worker_declaration.h"

namespace jbench::decode {
namespace {

// Index of `label` among the axis's labels, or nullopt.
std::optional<std::uint16_t> find_label(const AxisValues& axis, const std::string& label) {
  for (std::size_t i = 0; i < axis.labels.size(); ++i) {
    if (axis.labels[i] == label) return static_cast<std::uint16_t>(i);
  }
  return std::nullopt;
}

// A value as a parameter axis spells its labels ("0.50" is the label "0.5", "010" is "10"): read
// under the parameter's spec, as an override is; text the spec refuses, or a parameter not yet
// declared, as written.
std::string param_label(const Matrix& m, Axis axis, const std::string& text) {
  const WorkloadKind* kind = workload_kind_of(m.workload);
  const ParamSpec* spec = kind ? find_param(*kind, m.axis_name(axis)) : nullptr;
  if (!spec) return text;
  const auto value = param_value_from_text(*spec, text);
  return value ? param_value_text(*value) : text;
}

// A rule value as the axis spells its labels: workers are compared as numbers.
std::optional<std::string> rule_label(Context& ctx, const Matrix& m, Axis axis, const yaml::Node& n,
                                      const std::string& path) {
  if (axis == Axis::workers) {
    auto v = ctx.integer(n, path, 1, 1024);
    return v ? std::optional<std::string>(std::to_string(*v)) : std::nullopt;
  }
  auto text = ctx.string(n, path);
  if (text && is_param_axis(axis)) return param_label(m, axis, *text);
  return text;
}

std::optional<ExcludeRule> decode_rule(Context& ctx, const yaml::Node& node,
                                       const std::string& path, const Matrix& m) {
  if (!ctx.is_map(node, path)) return std::nullopt;
  if (node.entries.empty()) {
    ctx.error(node, path, "an empty rule would exclude every cell; name at least one axis");
    return std::nullopt;
  }
  ExcludeRule rule;
  rule.where = ctx.where(node);
  bool ok = true;
  for (const auto& entry : node.entries) {
    const auto key_path = join_path(path, entry.key.scalar);
    const auto axis = m.find_axis(entry.key.scalar);
    if (!axis || !m.axis(*axis).declared) {
      ctx.error(entry.key, key_path,
                fmt::format("'{}' is not an axis this matrix declares", entry.key.scalar));
      ok = false;
      continue;
    }
    std::vector<const yaml::Node*> values;
    if (entry.value.kind == yaml::Node::Kind::sequence) {
      for (const auto& item : entry.value.items) values.push_back(&item);
      if (values.empty()) {
        ctx.error(entry.value, key_path, "an empty list matches nothing");
        ok = false;
      }
    } else {
      values.push_back(&entry.value);
    }
    auto& indices = rule.values[static_cast<std::size_t>(*axis)];
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto value_path =
          entry.value.kind == yaml::Node::Kind::sequence ? index_path(key_path, i) : key_path;
      auto label = rule_label(ctx, m, *axis, *values[i], value_path);
      if (!label) {
        ok = false;
        continue;
      }
      auto index = find_label(m.axis(*axis), *label);
      if (!index) {
        ctx.error(*values[i], value_path,
                  fmt::format("'{}' is not a value of the axis '{}'", *label, m.axis_name(*axis)));
        ok = false;
        continue;
      }
      if (std::find(indices.begin(), indices.end(), *index) == indices.end()) {
        indices.push_back(*index);
      }
    }
  }
  return ok ? std::optional<ExcludeRule>(std::move(rule)) : std::nullopt;
}

bool rule_matches(const ExcludeRule& rule, const std::array<std::uint16_t, kAxisCount>& cell) {
  for (std::size_t a = 0; a < kAxisCount; ++a) {
    const auto& values = rule.values[a];
    if (values.empty()) continue;
    if (std::find(values.begin(), values.end(), cell[a]) == values.end()) return false;
  }
  return true;
}

// Walks every cell once. For each cell, the first rule that matches it is credited; a rule never
// credited excludes nothing new. A point (a cell without its trace mode) whose baseline is
// excluded while another mode is not is charged to the rule that excluded the baseline.
// `nodes[r]` and `indices[r]` locate rule r in the file. The baseline check runs only when every
// rule decoded: a rule dropped for an error might have excluded the traced modes too.
void check_coverage(Context& ctx, const std::vector<const yaml::Node*>& nodes,
                    const std::vector<std::size_t>& indices, bool check_baselines,
                    const Matrix& m) {
  const auto& rules = m.excludes;
  std::vector<bool> credited(rules.size(), false);
  std::vector<bool> orphaned_baseline(rules.size(), false);
  std::array<std::size_t, kAxisCount> sizes{};
  for (std::size_t a = 0; a < kAxisCount; ++a) {
    sizes[a] = std::max<std::size_t>(m.axes[a].labels.size(), 1);
  }
  const std::size_t trace = static_cast<std::size_t>(Axis::trace);
  const auto baseline = std::find(m.trace_modes.begin(), m.trace_modes.end(), TraceMode::baseline);
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const std::size_t baseline_index =
      baseline == m.trace_modes.end() ? kNone : std::size_t(baseline - m.trace_modes.begin());

  std::array<std::uint16_t, kAxisCount> cell{};
  for (;;) {
    // One point at a time: the innermost axis (trace) is walked here.
    std::optional<std::size_t> baseline_rule;
    bool traced_mode_kept = false;
    for (std::size_t t = 0; t < sizes[trace]; ++t) {
      cell[trace] = static_cast<std::uint16_t>(t);
      std::optional<std::size_t> first;
      for (std::size_t r = 0; r < rules.size() && !first; ++r) {
        if (rule_matches(rules[r], cell)) first = r;
      }
      if (first) credited[*first] = true;
      if (t == baseline_index) {
        baseline_rule = first;
      } else if (!first) {
        traced_mode_kept = true;
      }
    }
    if (baseline_rule && traced_mode_kept) orphaned_baseline[*baseline_rule] = true;
    // Advance the odometer over the other axes.
    std::size_t a = trace;
    while (a-- > 0) {
      if (++cell[a] < sizes[a]) break;
      cell[a] = 0;
    }
    if (a == static_cast<std::size_t>(-1)) break;
  }

  for (std::size_t r = 0; r < rules.size(); ++r) {
    const auto path = index_path("exclude", indices[r]);
    if (!credited[r]) {
      ctx.error(*nodes[r], path,
                indices[r] == 0
                    ? std::string("the rule excludes no cell")
                    : "the rule excludes no cell that earlier rules do not already exclude");
    }
    if (check_baselines && orphaned_baseline[r]) {
      ctx.error(*nodes[r], path,
                "the rule excludes the baseline of cells whose traced runs stay; every traced "
                "run needs its untraced baseline, so exclude the whole cell (drop 'trace' from "
                "the rule) or those traced modes too");
    }
  }
}

}  // namespace

void decode_excludes(Context& ctx, const yaml::Node& exclude, Matrix& m) {
  if (!ctx.is_sequence(exclude, "exclude")) return;
  std::vector<const yaml::Node*> nodes;
  std::vector<std::size_t> indices;
  bool ok = true;
  for (std::size_t i = 0; i < exclude.items.size(); ++i) {
    auto rule = decode_rule(ctx, exclude.items[i], index_path("exclude", i), m);
    if (!rule) {
      ok = false;
      continue;
    }
    m.excludes.push_back(std::move(*rule));
    nodes.push_back(&exclude.items[i]);
    indices.push_back(i);
  }
  check_coverage(ctx, nodes, indices, ok, m);
}

}  // namespace jbench::decode
