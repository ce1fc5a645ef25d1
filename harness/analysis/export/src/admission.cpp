#include "admission.h"

#include <algorithm>

namespace jbench::exports {
namespace {

// Counts the weight of events starting in [lo, lo + buckets * width), per bucket, and the
// weight starting before lo.
class TimeHistogram final : public Admission {
 public:
  TimeHistogram(std::uint64_t lo, std::uint64_t width, std::size_t buckets)
      : lo_(lo), width_(width), counts_(buckets, 0) {}
  bool admit(std::uint64_t ts_ns, unsigned weight, EventKind) override {
    if (ts_ns < lo_) {
      below_ += weight;
    } else if (const std::uint64_t b = (ts_ns - lo_) / width_; b < counts_.size()) {
      counts_[b] += weight;
    }
    return true;
  }
  std::uint64_t below() const { return below_; }
  const std::vector<std::uint64_t>& counts() const { return counts_; }

 private:
  std::uint64_t lo_;
  std::uint64_t width_;
  std::uint64_t below_ = 0;
  std::vector<std::uint64_t> counts_;
};

constexpr std::size_t kBuckets = 1 << 16;  // a 64-bit range narrows to 1 ns in four passes

}  // namespace

const char* event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::span:
      return "span";
    case EventKind::gc:
      return "gc";
    case EventKind::syscall:
      return "syscall";
    case EventKind::phase:
      return "phase";
    case EventKind::boundary:
      return "boundary";
    case EventKind::counter:
      return "counter";
    case EventKind::wakeup:
      return "wakeup";
  }
  return "?";
}

const char* event_kind_plural(EventKind kind) {
  switch (kind) {
    case EventKind::span:
      return "spans";
    case EventKind::gc:
      return "GC pauses";
    case EventKind::syscall:
      return "syscalls";
    case EventKind::phase:
      return "phase marks";
    case EventKind::boundary:
      return "run boundaries";
    case EventKind::counter:
      return "counter values";
    case EventKind::wakeup:
      return "wake-up flows";
  }
  return "?";
}

bool AdmitAll::admit(std::uint64_t ts_ns, unsigned w, EventKind) {
  weight += w;
  min_ns = std::min(min_ns, ts_ns);
  max_ns = std::max(max_ns, ts_ns);
  return true;
}

bool AdmitUntil::admit(std::uint64_t ts_ns, unsigned weight, EventKind kind) {
  if (ts_ns < cut_) return true;
  if (ts_ns == cut_ && weight <= room_) {
    room_ -= weight;
    return true;
  }
  leave_out(weight, kind);
  return false;
}

void AdmitUntil::leave_out(unsigned weight, EventKind kind) {
  left_out_.events += weight;
  ++left_out_.by_kind[static_cast<std::size_t>(kind)];
}

std::optional<CutPoint> find_cut(std::uint64_t max_events, const AdmitAll& all,
                                 const std::function<void(Admission&)>& pass) {
  if (all.weight <= max_events) return std::nullopt;
  // Invariant: the weight starting before `lo` fits; the weight starting before `hi` does not.
  std::uint64_t lo = all.min_ns;
  std::uint64_t hi = all.max_ns + 1;
  std::uint64_t before_lo = 0;
  while (hi - lo > 1) {
    const std::uint64_t span = hi - lo;
    const std::uint64_t width = span / kBuckets + (span % kBuckets != 0);
    TimeHistogram histogram(lo, width, kBuckets);
    pass(histogram);
    std::uint64_t before = histogram.below();
    std::size_t b = 0;
    for (; b < histogram.counts().size(); ++b) {
      if (before + histogram.counts()[b] > max_events) break;
      before += histogram.counts()[b];
    }
    const std::uint64_t new_lo = lo + b * width;
    hi = std::min(hi, new_lo + width);
    lo = new_lo;
    before_lo = before;
  }
  return CutPoint{lo, max_events - before_lo};
}

}  // namespace jbench::exports
