// Span pairing and parentage within one raw file. Private to jbench::events.
//
// A parent must have begun before its child (earlier in the file), which also rules out cycles.
// Memory: open spans are kept whole; of a closed span only a 64-bit hash of its id remains, so a
// file of a million spans costs tens of MB, not the size of the file.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace jbench::events_detail {

class SpanGraph {
 public:
  using Report = std::function<void(const char* code, std::size_t line, std::string message)>;

  void begin(std::string_view id, std::optional<std::string_view> parent, std::size_t line,
             const Report& report);
  void end(std::string_view id, std::size_t line, const Report& report);
  // Every span that began has ended.
  void finish(const Report& report) const;

 private:
  std::unordered_set<std::uint64_t> begun_;              // every span id seen, hashed
  std::unordered_map<std::uint64_t, std::size_t> open_;  // open span -> the line it began on
};

}  // namespace jbench::events_detail
