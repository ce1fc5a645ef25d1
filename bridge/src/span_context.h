// The calling thread's current span: a short stack of open spans over an adopted base, so a span
// begun with parent 0 nests under whatever the thread is doing. Thread-local, no locks. Private.
#pragma once

#include <cstdint>

namespace jb_detail {

// The parent a new span gets when the caller passes 0.
std::uint64_t current_span() noexcept;
// `span` becomes current.
void push_span(std::uint64_t span) noexcept;
// `span` ends: if it is open on this thread, what was current before it becomes current again.
void pop_span(std::uint64_t span) noexcept;
// Replaces the thread's context: spans begun next have `span` as parent.
void adopt_span(std::uint64_t span) noexcept;

}  // namespace jb_detail
