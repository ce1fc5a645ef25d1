#include "proc_files.h"

#include <cstdio>

#include "jbench/common/text.h"

namespace jbench::provenance_detail {

std::optional<std::vector<unsigned>> parse_cpu_list(const std::string& text) {
  std::vector<unsigned> cpus;
  const std::string list = trim(text);
  if (list.empty()) return std::nullopt;
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto comma = list.find(',', start);
    const std::string range =
        list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    unsigned lo = 0;
    unsigned hi = 0;
    char tail = 0;
    if (std::sscanf(range.c_str(), "%u-%u%c", &lo, &hi, &tail) == 2 && hi >= lo &&
        hi - lo < 65536) {
      for (unsigned c = lo; c <= hi; ++c) cpus.push_back(c);
    } else if (std::sscanf(range.c_str(), "%u%c", &lo, &tail) == 1) {
      cpus.push_back(lo);
    } else {
      return std::nullopt;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return cpus;
}

nlohmann::json unavailable(const std::string& why) { return {{"unavailable", why}}; }

}  // namespace jbench::provenance_detail
