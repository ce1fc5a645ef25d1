#include "micros.h"

#include <charconv>

namespace jbench::exports {

void append_micros(std::string& out, std::uint64_t ns) {
  char buf[32];
  auto* end = std::to_chars(buf, buf + sizeof buf, ns / 1000).ptr;
  const auto frac = static_cast<unsigned>(ns % 1000);
  *end++ = '.';
  *end++ = static_cast<char>('0' + frac / 100);
  *end++ = static_cast<char>('0' + frac / 10 % 10);
  *end++ = static_cast<char>('0' + frac % 10);
  out.append(buf, end);
}

std::string micros(std::uint64_t ns) {
  std::string s;
  append_micros(s, ns);
  return s;
}

}  // namespace jbench::exports
