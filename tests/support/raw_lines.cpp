#include "raw_lines.h"

#include <stdexcept>

#include "jbench/events/line_reader.h"

namespace jbench::test {

std::vector<std::string> raw_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::size_t overlong = 0;
  const auto read = events::for_each_line(
      path, std::size_t{16} << 20,
      [&](std::size_t, std::string_view line) {
        lines.emplace_back(line);
        return true;
      },
      [&](std::size_t number) { overlong = number; });
  if (!read.error.empty()) throw std::runtime_error(path + ": " + read.error);
  if (overlong != 0) {
    throw std::runtime_error(path + ":" + std::to_string(overlong) + ": a line over 16 MiB");
  }
  return lines;
}

}  // namespace jbench::test
