#include "compatibility.h"

#include <fmt/format.h>

#include <cmath>
#include <variant>

#include "jbench/matrix/param_override.h"

namespace jbench::compare {

namespace {

std::string phase_text(const Phase& p) {
  return p.kind == Phase::Kind::duration ? fmt::format("{} ms", p.amount)
                                         : fmt::format("{} operations", p.amount);
}

}  // namespace

std::map<std::string, std::string> cell_definition(const Matrix& m) {
  std::map<std::string, std::string> out;
  out["workload.kind"] = m.workload.kind;
  for (const Param& p : m.workload.params)
    out["workload.params." + p.key] = param_value_text(p.value);
  out["phases.warmup"] = phase_text(m.warmup);
  out["phases.measure"] = phase_text(m.measure);
  for (const Dataset& d : m.datasets) {
    out["datasets." + d.name + ".rows"] = std::to_string(d.rows);
    out["datasets." + d.name + ".row_bytes"] = std::to_string(d.row_bytes);
    out["datasets." + d.name + ".page_cache_kib"] = std::to_string(d.page_cache_kib);
  }
  return out;
}

std::optional<std::string> memory_difference(const model::Host& base,
                                             const model::Host& candidate) {
  const auto b = base.memory_total_mib, c = candidate.memory_total_mib;
  if (!b || !c) return std::nullopt;
  if (std::fabs(*b - *c) <= 0.05 * std::max(*b, *c)) return std::nullopt;
  return fmt::format("host.memory_total_mib: {} -> {} (more than 5% apart)", *b, *c);
}

std::vector<std::string> differing(const std::map<std::string, std::string>& base,
                                   const std::map<std::string, std::string>& candidate,
                                   bool skip_missing) {
  std::vector<std::string> out;
  std::map<std::string, std::string> keys;
  for (const auto& [k, v] : base) keys[k];
  for (const auto& [k, v] : candidate) keys[k];
  for (const auto& [k, unused] : keys) {
    auto b = base.find(k), c = candidate.find(k);
    if ((b == base.end() || c == candidate.end()) && skip_missing) continue;
    std::string bv = b == base.end() ? "(absent)" : b->second;
    std::string cv = c == candidate.end() ? "(absent)" : c->second;
    if (bv != cv) out.push_back(fmt::format("{}: {} -> {}", k, bv, cv));
  }
  return out;
}

}  // namespace jbench::compare
