// Span pairing and parentage within one raw file. Private to jbench::events.
//
// What the file must prove, whatever order its streams were interleaved in (a writer that drains
// several threads cannot order records across them by cause): every span begins once and ends
// once, in either order; and following parents from any span reaches a root — no parent that
// never begins, no cycle. Within a stream the order is the stream's own (seq), checked by the
// reader, not here.
//
// Memory: a 64-bit hash per span id seen, never the text of the file. A span whose ancestry is
// proven when it begins (its parent began earlier and is itself proven — always so in a file
// written in causal order) costs nothing more; open spans, ends seen before their begins, and
// spans whose parent is not known yet are kept aside until they resolve.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace jbench::events_detail {

class SpanGraph {
 public:
  using Report = std::function<void(const char* code, std::size_t line, std::string message)>;

  void begin(std::string_view id, std::optional<std::string_view> parent, std::size_t line,
             const Report& report);
  void end(std::string_view id, std::size_t line, const Report& report);
  // At the end of the file: what never paired, and the ancestry of every span not yet proven;
  // findings in line order.
  void finish(const Report& report);

 private:
  // A span whose parent had not been proven when it began.
  struct Pending {
    std::uint64_t parent;
    std::size_t line;
    std::uint8_t state = 0;  // during finish: on the current path, rooted, or reported
  };
  bool proven(std::uint64_t span) const { return begun_.count(span) && !pending_.count(span); }
  void resolve(std::uint64_t first, std::vector<std::pair<std::size_t, std::string>>& orphans);

  std::unordered_set<std::uint64_t> begun_;                   // every span that began, hashed
  std::unordered_map<std::uint64_t, std::size_t> open_;       // begun, not ended -> its line
  std::unordered_map<std::uint64_t, std::size_t> early_end_;  // ended, not begun -> its line
  std::unordered_map<std::uint64_t, Pending> pending_;
  std::unordered_map<std::uint64_t, std::string> parent_names_;  // of pending spans, for messages
};

}  // namespace jbench::events_detail
