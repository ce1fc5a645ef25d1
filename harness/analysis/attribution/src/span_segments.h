// One incarnation's spans and GC pauses on each of its threads, flattened into non-overlapping
// segments each labelled with the innermost span open there, so that "which span was innermost
// when this call entered" is one binary search, and a span's self time is the length of the
// segments it labels. Private to jbench::attribution.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace jbench::attribution {

class SpanSegments {
 public:
  struct Span {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint32_t name = 0;  // index into names()
  };
  struct Segment {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint32_t span = 0;  // index into spans(tid)
  };
  struct Pause {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
  };

  void begin(std::int64_t tid, std::string_view id, std::string_view name, std::uint64_t t);
  void end(std::int64_t tid, std::string_view id, std::uint64_t t);
  void gc(std::int64_t tid, bool begin, std::uint64_t t);
  // Closes what never ended at `last_ns` and builds the segments; returns how many spans and
  // GC pauses were closed that way.
  std::uint64_t seal(std::uint64_t last_ns);

  const std::vector<std::string>& names() const { return names_; }
  std::vector<std::int64_t> threads() const;
  const std::vector<Span>& spans(std::int64_t tid) const;
  const std::vector<Segment>& segments(std::int64_t tid) const;
  const std::vector<Pause>& pauses(std::int64_t tid) const;
  // The span innermost at `t` on `tid`, or nullptr.
  const Span* innermost(std::int64_t tid, std::uint64_t t) const;
  // The GC pause holding `t` on `tid`, or nullptr.
  const Pause* pause_at(std::int64_t tid, std::uint64_t t) const;

 private:
  struct Thread {
    std::vector<Span> spans;
    std::vector<Segment> segments;
    std::vector<Pause> pauses;
    std::unordered_map<std::string, std::size_t> open;  // span id -> index in spans
    std::optional<std::uint64_t> gc_open;
  };
  std::uint32_t name_index(std::string_view name);
  Thread& thread(std::int64_t tid) { return threads_[tid]; }

  std::map<std::int64_t, Thread> threads_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::uint32_t> name_ids_;
};

}  // namespace jbench::attribution
