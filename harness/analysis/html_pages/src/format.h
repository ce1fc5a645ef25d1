// Reading a report's fields tolerantly, and writing its numbers for people.
//
// The report is a foreign document: any field may be missing, null or of another type, so every
// read goes through these and yields "absent" instead of throwing. Times (*_ns) may be JSON
// numbers or decimal strings (the report keeps exact nanoseconds as strings); both are read.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace jbench::html_pages {

// obj[key], or a null when obj is not an object or has no such key.
const nlohmann::json& field(const nlohmann::json& obj, std::string_view key);
// The elements of an array, or of nothing when `value` is not an array.
const nlohmann::json& array_or_empty(const nlohmann::json& value);
// A number, or a string holding a decimal number; nullopt otherwise (null, "", "abc", NaN).
std::optional<double> number(const nlohmann::json& value);
// A string as is, a number or boolean as JSON writes it; "" for null, objects and arrays.
std::string text(const nlohmann::json& value);
// An entry of a list of sentences (warnings, findings, refusals): its text; an object by its
// "message", else as its JSON — something the reader can see rather than nothing.
std::string sentence(const nlohmann::json& value);

// 0.58 → "58%", 0.062 → "6.2%", 0.004 → "0.40%": more digits as the share gets smaller.
std::string percent(double fraction);
// The interval of a share without the % sign, as the sentences write it: "[54–61]".
std::string percent_interval(double low, double high);
// Nanoseconds with a unit, three significant digits: 850 ns, 4.88 µs, 2.9 ms, 1.25 s.
std::string duration(double ns);
// A count and its noun, plural unless it is one: "1 pair", "5 pairs", "4000 committed
// transactions" (the nouns the report uses all take an s).
std::string count_of(double n, std::string_view noun);
// A ratio of times: "×1.07".
std::string ratio(double value);
// A plain number, three significant digits, no exponent for everyday magnitudes: 2600, 0.89.
std::string plain(double value);

}  // namespace jbench::html_pages
