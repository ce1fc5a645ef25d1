// What attaching the kernel-side tracer cost the light and full runs of an earlier bundle: the
// figure the plan's time estimate uses instead of an assumption, when a bundle is at hand.
//
//   if (auto cost = latest_attach_cost("bundles")) options.tracer_attach_ms = cost->median_ms;
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace jbench::overhead_report {

struct AttachCost {
  std::uint64_t median_ms = 0;  // median over the runs below
  std::size_t runs = 0;         // light and full runs whose tracer attached
  std::string bundle;           // the bundle it was read from
  std::string source() const;   // "measured: median of N traced runs' tracer attach in <bundle>"
};

// From one bundle; nullopt when it has no traced run whose tracer attached, is unreadable or is
// invalid (bundle_validity.h).
std::optional<AttachCost> attach_cost(const std::string& bundle_dir);

// From the newest of the five newest bundles under `bundles_dir` (by their manifests'
// modification time) that has one; hidden (staging, scratch) and `.invalid` directories are not
// read.
std::optional<AttachCost> latest_attach_cost(const std::string& bundles_dir);

}  // namespace jbench::overhead_report
