#include "random_matrix.h"

#include "jbench/common/random.h"
#include "jbench/common/trace_mode.h"

namespace jbench::test {

Matrix random_matrix(std::uint64_t seed) {
  SplitMix64 rng(seed);
  Matrix m;
  m.name = "random";
  m.seed = rng.next();
  m.repetitions = static_cast<std::uint32_t>(1 + rng.below(3));
  m.limits = {1024, 60, 8, std::nullopt, std::nullopt};
  m.warmup = {Phase::Kind::duration, 10};
  m.measure = {Phase::Kind::operations, 10};
  m.ordering = {rng.below(2) == 0, static_cast<ModeOrder>(rng.below(3)), rng.next()};
  auto& workers = m.axis(Axis::workers);
  workers.declared = true;
  for (std::uint32_t w = 1; w <= 128; w *= 2) {
    if (rng.below(2) == 0 || w == 128) {
      workers.labels.push_back(std::to_string(w));
      m.workers.push_back(w);
    }
  }
  const auto pick = [&](Axis axis, std::span<const std::string_view> values) {
    auto& a = m.axis(axis);
    a.declared = true;
    for (auto v : values) {
      if (rng.below(3) != 0 || (a.labels.empty() && v == values.back())) a.labels.emplace_back(v);
    }
  };
  pick(Axis::connection, kConnectionValues);
  pick(Axis::lane, kLaneValues);
  pick(Axis::trace, kTraceValues);
  for (const auto& label : m.axis(Axis::trace).labels) {
    m.trace_modes.push_back(*trace_mode_from_name(label));
  }
  auto& datasets = m.axis(Axis::dataset);
  datasets.declared = true;
  for (std::uint64_t d = 0; d <= rng.below(3); ++d) {
    datasets.labels.push_back("d" + std::to_string(d));
    m.datasets.push_back({"d" + std::to_string(d), 10, 10, 10, ""});
  }
  // Up to two swept parameters, filling the param slots in order as the decoder does.
  const std::uint64_t param_axes = rng.below(3);
  for (std::size_t slot = 0; slot < param_axes; ++slot) {
    auto& a = m.axis(param_axis(slot));
    a.declared = true;
    a.param = "p" + std::to_string(slot + 1);
    for (std::int64_t v = 1; v <= std::int64_t(1 + rng.below(3)); ++v) {
      a.labels.push_back(std::to_string(v * 10));
      a.values.emplace_back(v * 10);
    }
  }
  for (auto& a : m.axes) a.where.resize(a.labels.size());
  for (std::uint64_t r = 0; r < rng.below(3); ++r) {
    ExcludeRule rule;
    rule.values[0].push_back(static_cast<std::uint16_t>(rng.below(workers.labels.size())));
    if (rng.below(2) == 0) {
      rule.values[2].push_back(
          static_cast<std::uint16_t>(rng.below(m.axis(Axis::lane).labels.size())));
    }
    if (param_axes > 0 && rng.below(2) == 0) {
      const auto& swept = m.axis(Axis::param1).labels;
      rule.values[static_cast<std::size_t>(Axis::param1)].push_back(
          static_cast<std::uint16_t>(rng.below(swept.size())));
    }
    m.excludes.push_back(rule);
  }
  return m;
}

}  // namespace jbench::test
