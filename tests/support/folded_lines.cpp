#include "folded_lines.h"

#include <regex>
#include <sstream>

namespace jbench::test {

std::map<std::string, std::uint64_t> folded_lines(const std::string& text,
                                                  std::vector<std::string>& bad) {
  static const std::regex line_re(R"(^(\S.*) (\d+)$)");
  std::map<std::string, std::uint64_t> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, line_re) || out.contains(m[1])) {
      bad.push_back(line);
      continue;
    }
    out[m[1]] = std::stoull(m[2]);
  }
  return out;
}

std::map<std::string, std::uint64_t> folded_by_tail(
    const std::map<std::string, std::uint64_t>& lines, int frames) {
  std::map<std::string, std::uint64_t> out;
  for (const auto& [stack, value] : lines) {
    std::size_t cut = stack.size();
    for (int i = 0; i < frames && cut != std::string::npos && cut > 0; ++i) {
      cut = stack.rfind(';', cut - 1);
    }
    out[cut == std::string::npos ? stack : stack.substr(cut + 1)] += value;
  }
  return out;
}

}  // namespace jbench::test
