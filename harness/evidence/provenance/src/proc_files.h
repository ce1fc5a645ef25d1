// Internal: reading small text files from /proc and /sys, and the CPU-list syntax of sysfs.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace jbench::provenance_detail {

// The whole file, or nullopt with `why` set to "cannot open <path>: <strerror>" and the like.
// Reads to end of file (procfs reports size 0), at most `max_bytes`.
std::optional<std::string> read_text(const std::string& path, std::string& why,
                                     std::size_t max_bytes = 4 << 20);

// First line without its newline.
std::optional<std::string> read_first_line(const std::string& path, std::string& why);

// "0-3,6,8-9" -> {0,1,2,3,6,8,9}; nullopt when malformed.
std::optional<std::vector<unsigned>> parse_cpu_list(const std::string& text);

// {"unavailable": why}: how a fact that could not be read is recorded.
nlohmann::json unavailable(const std::string& why);

}  // namespace jbench::provenance_detail
