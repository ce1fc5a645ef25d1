// Decimal strings for integers that JSON readers must not round.
//
// DESIGN: 64-bit values that can exceed 2^53 (nanosecond timestamps, sums, seeds) travel in
// JSON as decimal strings. These are the canonical forms jbench writes and the only ones it
// reads back: ASCII digits, no sign, no spaces, no leading zeros (except "0" itself).
//
//   to_decimal(std::uint64_t{1} << 60)   // "1152921504606846976"
//   parse_decimal_u64("007")             // nullopt: not canonical
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "jbench/stats/histogram.h"

namespace jbench::stats {

std::string to_decimal(uint128 value);
inline std::string to_decimal(std::uint64_t value) { return to_decimal(uint128{value}); }

// nullopt for anything that is not the canonical decimal form of a value that fits.
std::optional<std::uint64_t> parse_decimal_u64(std::string_view text);
std::optional<uint128> parse_decimal_u128(std::string_view text);

}  // namespace jbench::stats
