// The run's phases as the harness timed them (run.json "boundaries"), and which phase a
// CLOCK_MONOTONIC instant falls in. Collectors attribute their records with it, so every
// collector splits a run the same way.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

namespace jbench::collectors {

inline constexpr std::array<std::string_view, 4> kPhases = {"startup", "warmup", "measure",
                                                            "teardown"};

struct PhaseBoundaries {
  // Where each phase starts; startup runs from the first process start until warmup_start.
  // The wait at the barrier after warmup counts as warmup; sending the results, as measure.
  std::uint64_t warmup_start_ns = UINT64_MAX;
  std::uint64_t measure_start_ns = UINT64_MAX;
  std::uint64_t teardown_start_ns = UINT64_MAX;

  // From run.json's "boundaries" (decimal strings); a missing boundary never starts.
  static PhaseBoundaries from_json(const nlohmann::json& boundaries);
  std::size_t phase_index(std::uint64_t t_ns) const;
  std::string_view phase_at(std::uint64_t t_ns) const { return kPhases[phase_index(t_ns)]; }
};

}  // namespace jbench::collectors
