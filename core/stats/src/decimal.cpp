#include "jbench/stats/decimal.h"

#include <algorithm>
#include <limits>

namespace jbench::stats {

std::string to_decimal(uint128 value) {
  if (value == 0) return "0";
  std::string digits;
  while (value != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(value % 10)));
    value /= 10;
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::optional<uint128> parse_decimal_u128(std::string_view text) {
  if (text.empty() || text.size() > 39) return std::nullopt;  // 2^128 - 1 has 39 digits
  if (text.size() > 1 && text.front() == '0') return std::nullopt;
  constexpr uint128 kMax = ~uint128{0};
  uint128 value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<unsigned>(c - '0');
    if (value > (kMax - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

std::optional<std::uint64_t> parse_decimal_u64(std::string_view text) {
  // Up to 19 digits cannot overflow 64 bits: read them directly. Raw files hold millions of
  // timestamps, and the 128-bit path below costs several times as much per digit.
  if (!text.empty() && text.size() <= 19 && (text.size() == 1 || text.front() != '0')) {
    std::uint64_t value = 0;
    for (char c : text) {
      if (c < '0' || c > '9') return std::nullopt;
      value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return value;
  }
  const auto wide = parse_decimal_u128(text);
  if (!wide || *wide > std::numeric_limits<std::uint64_t>::max()) return std::nullopt;
  return static_cast<std::uint64_t>(*wide);
}

}  // namespace jbench::stats
