#include "span_context.h"

#include <cstddef>

namespace jb_detail {
namespace {

// Deeper nesting than this still works: spans past the limit are not remembered, so ending one
// leaves the deepest remembered span current.
constexpr std::size_t kMaxDepth = 64;

struct Frame {
  std::uint64_t span;
  std::uint64_t previous;  // what was current when it began
};

thread_local Frame t_stack[kMaxDepth];
thread_local std::size_t t_depth = 0;
thread_local std::uint64_t t_current = 0;

}  // namespace

std::uint64_t current_span() noexcept { return t_current; }

void push_span(std::uint64_t span) noexcept {
  if (t_depth < kMaxDepth) t_stack[t_depth++] = Frame{span, t_current};
  t_current = span;
}

void pop_span(std::uint64_t span) noexcept {
  // Spans usually end innermost first; one ending out of order takes the ones above it along.
  for (std::size_t i = t_depth; i > 0; --i) {
    if (t_stack[i - 1].span == span) {
      t_current = t_stack[i - 1].previous;
      t_depth = i - 1;
      return;
    }
  }
  // Not open on this thread (ended elsewhere, or beyond kMaxDepth): the context stays.
}

void adopt_span(std::uint64_t span) noexcept {
  t_depth = 0;
  t_current = span;
}

}  // namespace jb_detail
