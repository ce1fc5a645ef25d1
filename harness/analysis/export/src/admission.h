// Which events an export writes under --max-events: all of them, or those up to a cut time, in
// time order, whatever order the raw files hold them in. Finding the cut takes passes over the
// records that only count (a histogram of start times, narrowed until it is one nanosecond
// wide), so memory stays fixed however many events there are.
//
// Weights: a begin counts 2, since its end is always written with it (at the cut, if the span
// ends later), so the events written never exceed the cap.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

namespace jbench::exports {

enum class EventKind : std::uint8_t { span, gc, syscall, phase, boundary, counter, wakeup };
inline constexpr std::size_t kEventKinds = 7;
const char* event_kind_name(EventKind kind);    // "span", "gc", "syscall", "phase", ..., "wakeup"
const char* event_kind_plural(EventKind kind);  // "spans", "GC pauses", "syscalls", ...

class Admission {
 public:
  virtual ~Admission() = default;
  // Whether an event that starts at ts_ns and takes `weight` trace events is written.
  virtual bool admit(std::uint64_t ts_ns, unsigned weight, EventKind kind) = 0;
  // An event not written because it lies inside a slice that is not (so is past the cut).
  virtual void leave_out(unsigned /*weight*/, EventKind /*kind*/) {}
  // The time past which nothing is written; unset without a cut.
  virtual std::optional<std::uint64_t> cut_ns() const { return std::nullopt; }
};

// Admits everything and counts it.
class AdmitAll final : public Admission {
 public:
  bool admit(std::uint64_t ts_ns, unsigned weight, EventKind kind) override;
  std::uint64_t weight = 0;
  std::uint64_t min_ns = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max_ns = 0;
};

struct CutCounts {
  std::uint64_t events = 0;  // trace events left out (a span's begin and end count 2)
  std::array<std::uint64_t, kEventKinds> by_kind{};  // spans, GC pauses, calls, ... left out
};

// Admits what starts before `cut_ns`, and at `cut_ns` while `room` lasts (ties in file order).
class AdmitUntil final : public Admission {
 public:
  AdmitUntil(std::uint64_t cut_ns, std::uint64_t room) : cut_(cut_ns), room_(room) {}
  bool admit(std::uint64_t ts_ns, unsigned weight, EventKind kind) override;
  std::optional<std::uint64_t> cut_ns() const override { return cut_; }
  void leave_out(unsigned weight, EventKind kind) override;
  const CutCounts& left_out() const { return left_out_; }

 private:
  std::uint64_t cut_;
  std::uint64_t room_;
  CutCounts left_out_;
};

struct CutPoint {
  std::uint64_t cut_ns = 0;  // events starting after it are left out
  std::uint64_t room = 0;    // the weight admitted among those starting exactly at it
};

// The cut for `max_events`, or nullopt when everything fits. `pass` runs the whole conversion
// once with the admission given (it must admit the same events in the same order each time);
// `all` is what a first pass with AdmitAll counted.
std::optional<CutPoint> find_cut(std::uint64_t max_events, const AdmitAll& all,
                                 const std::function<void(Admission&)>& pass);

}  // namespace jbench::exports
