#include "span_segments.h"

#include <algorithm>
#include <optional>

namespace jbench::attribution {
namespace {

const std::vector<SpanSegments::Span> kNoSpans;
const std::vector<SpanSegments::Segment> kNoSegments;
const std::vector<SpanSegments::Pause> kNoPauses;

}  // namespace

std::uint32_t SpanSegments::name_index(std::string_view name) {
  const auto [it, fresh] =
      name_ids_.try_emplace(std::string(name), static_cast<std::uint32_t>(names_.size()));
  if (fresh) names_.emplace_back(name);
  return it->second;
}

void SpanSegments::begin(std::int64_t tid, std::string_view id, std::string_view name,
                         std::uint64_t t) {
  Thread& th = thread(tid);
  th.open[std::string(id)] = th.spans.size();
  th.spans.push_back({t, t, name_index(name)});
}

void SpanSegments::end(std::int64_t tid, std::string_view id, std::uint64_t t) {
  Thread& th = thread(tid);
  const auto it = th.open.find(std::string(id));
  if (it == th.open.end()) return;  // the validator reports unpaired ends; nothing to count
  Span& s = th.spans[it->second];
  s.end = std::max(t, s.begin);
  th.open.erase(it);
}

void SpanSegments::gc(std::int64_t tid, bool begin, std::uint64_t t) {
  Thread& th = thread(tid);
  if (begin) {
    th.gc_open = t;
  } else if (th.gc_open) {
    th.pauses.push_back({*th.gc_open, std::max(t, *th.gc_open)});
    th.gc_open.reset();
  }
}

std::uint64_t SpanSegments::seal(std::uint64_t last_ns) {
  std::uint64_t closed = 0;
  for (auto& [tid, th] : threads_) {
    for (const auto& [id, index] : th.open) {
      Span& s = th.spans[index];
      s.end = std::max(last_ns, s.begin);
      ++closed;
    }
    th.open.clear();
    if (th.gc_open) {
      th.pauses.push_back({*th.gc_open, std::max(last_ns, *th.gc_open)});
      th.gc_open.reset();
      ++closed;
    }
    std::sort(th.pauses.begin(), th.pauses.end(),
              [](const Pause& a, const Pause& b) { return a.begin < b.begin; });
    // Spans in begin order, an enclosing span before the spans it encloses; a sweep with a
    // stack of open spans then labels every instant with the innermost one.
    std::vector<std::uint32_t> order(th.spans.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      const Span& x = th.spans[a];
      const Span& y = th.spans[b];
      return x.begin != y.begin ? x.begin < y.begin : x.end > y.end;
    });
    std::vector<std::pair<std::uint32_t, std::uint64_t>> stack;  // (span, end clamped to parent)
    std::uint64_t cursor = 0;
    const auto emit = [&](std::uint64_t until) {
      if (!stack.empty() && until > cursor) {
        th.segments.push_back({cursor, until, stack.back().first});
      }
      cursor = std::max(cursor, until);
    };
    for (const std::uint32_t i : order) {
      const Span& s = th.spans[i];
      while (!stack.empty() && stack.back().second <= s.begin) {
        emit(stack.back().second);
        stack.pop_back();
      }
      emit(s.begin);
      // A child that outlives its parent (records of a misbehaving runtime) is cut at the
      // parent's end, so nesting holds and no instant has two innermost spans.
      const std::uint64_t end = stack.empty() ? s.end : std::min(s.end, stack.back().second);
      stack.emplace_back(i, end);
    }
    while (!stack.empty()) {
      emit(stack.back().second);
      stack.pop_back();
    }
  }
  return closed;
}

std::vector<std::int64_t> SpanSegments::threads() const {
  std::vector<std::int64_t> out;
  for (const auto& [tid, th] : threads_) out.push_back(tid);
  return out;
}

const std::vector<SpanSegments::Span>& SpanSegments::spans(std::int64_t tid) const {
  const auto it = threads_.find(tid);
  return it == threads_.end() ? kNoSpans : it->second.spans;
}

const std::vector<SpanSegments::Segment>& SpanSegments::segments(std::int64_t tid) const {
  const auto it = threads_.find(tid);
  return it == threads_.end() ? kNoSegments : it->second.segments;
}

const std::vector<SpanSegments::Pause>& SpanSegments::pauses(std::int64_t tid) const {
  const auto it = threads_.find(tid);
  return it == threads_.end() ? kNoPauses : it->second.pauses;
}

const SpanSegments::Span* SpanSegments::innermost(std::int64_t tid, std::uint64_t t) const {
  const auto it = threads_.find(tid);
  if (it == threads_.end()) return nullptr;
  const auto& segs = it->second.segments;
  auto s = std::upper_bound(segs.begin(), segs.end(), t,
                            [](std::uint64_t v, const Segment& g) { return v < g.begin; });
  if (s == segs.begin()) return nullptr;
  --s;
  return t < s->end ? &it->second.spans[s->span] : nullptr;
}

const SpanSegments::Pause* SpanSegments::pause_at(std::int64_t tid, std::uint64_t t) const {
  const auto it = threads_.find(tid);
  if (it == threads_.end()) return nullptr;
  const auto& ps = it->second.pauses;
  auto p = std::upper_bound(ps.begin(), ps.end(), t,
                            [](std::uint64_t v, const Pause& g) { return v < g.begin; });
  if (p == ps.begin()) return nullptr;
  --p;
  return t < p->end ? &*p : nullptr;
}

}  // namespace jbench::attribution
