// Internal: the facts of /proc and /sys as the provenance records them, and the CPU-list syntax
// of sysfs.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace jbench::provenance_detail {

// The most of a /proc file a fact is read from (/proc/cpuinfo of a large host is hundreds of
// KiB); files are read with jbench/common/small_file.h.
inline constexpr std::size_t kMaxProcTextBytes = 4 << 20;

// "0-3,6,8-9" -> {0,1,2,3,6,8,9}; nullopt when malformed.
std::optional<std::vector<unsigned>> parse_cpu_list(const std::string& text);

// {"unavailable": why}: how a fact that could not be read is recorded.
nlohmann::json unavailable(const std::string& why);

}  // namespace jbench::provenance_detail
