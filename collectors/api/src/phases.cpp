#include "jbench/collectors/api/phases.h"

#include <charconv>
#include <string>

namespace jbench::collectors {

PhaseBoundaries PhaseBoundaries::from_json(const nlohmann::json& b) {
  const auto read = [&](const char* key) {
    std::uint64_t v = UINT64_MAX;
    if (b.is_object() && b.contains(key) && b[key].is_string()) {
      const std::string& s = b[key].get_ref<const std::string&>();
      std::from_chars(s.data(), s.data() + s.size(), v);
    }
    return v;
  };
  PhaseBoundaries p;
  p.warmup_start_ns = read("warmup_start_ns");
  p.measure_start_ns = read("measure_start_ns");
  p.teardown_start_ns = read("teardown_start_ns");
  return p;
}

std::size_t PhaseBoundaries::phase_index(std::uint64_t t) const {
  if (t >= teardown_start_ns) return 3;  // also for a run that never reached warmup
  if (t < warmup_start_ns) return 0;
  if (t < measure_start_ns) return 1;
  if (t < teardown_start_ns) return 2;
  return 3;
}

}  // namespace jbench::collectors
