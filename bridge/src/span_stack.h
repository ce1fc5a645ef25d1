// A thread's current span: the stack of its open spans over an adopted base, so a span begun with
// parent 0 nests under whatever the thread is doing. Owned by one thread, no locks. Private.
//
// The stack is a ring of kDepth ids whose slot 0 (at depth 0) holds the base: current() is one
// load, push one store, and the usual pop (the innermost span ends) one compare. The innermost
// kDepth - 1 open spans are always exact; a thread nested deeper than that overwrites its
// outermost frames, and unwinding past them leaves the context at the deepest span it still
// remembers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace jb_detail {

class SpanStack {
 public:
  // The parent a new span gets when the caller passes 0.
  std::uint64_t current() const noexcept { return ids_[depth_ & kMask]; }

  // `span` becomes current.
  void push(std::uint64_t span) noexcept {
    ++depth_;
    ids_[depth_ & kMask] = span;
  }

  // `span` ends: if it is open on this thread, what was current before it becomes current
  // again. A span ending out of order takes the ones above it along; a span not open here
  // (begun or adopted elsewhere) leaves the context alone.
  void pop(std::uint64_t span) noexcept {
    if (__builtin_expect(depth_ != 0 && ids_[depth_ & kMask] == span, 1)) {
      --depth_;
    } else {
      pop_below_top(span);
    }
  }

  // Replaces the context: spans begun next have `span` as parent.
  void adopt(std::uint64_t span) noexcept {
    depth_ = 0;
    ids_[0] = span;
  }

 private:
  static constexpr std::size_t kDepth = 64;  // a power of two
  static constexpr std::size_t kMask = kDepth - 1;

  [[gnu::noinline]] void pop_below_top(std::uint64_t span) noexcept {
    const std::size_t remembered = depth_ < kDepth ? depth_ : kDepth - 1;
    for (std::size_t back = 1; back < remembered; ++back) {
      if (ids_[(depth_ - back) & kMask] == span) {
        depth_ -= back + 1;
        return;
      }
    }
  }

  std::size_t depth_ = 0;
  std::uint64_t ids_[kDepth] = {};
};

}  // namespace jb_detail
