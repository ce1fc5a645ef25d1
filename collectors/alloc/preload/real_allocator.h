// The allocator the hooks forward to: the next definition of each function after this library
// in the process's lookup order (dlsym RTLD_NEXT), normally glibc's.
//
// Bootstrap: dlsym itself may allocate (glibc allocates its error state with calloc) before any
// real function is known. Calls made while resolving are served from a small static arena; a
// pointer from the arena is recognised by its address, so free ignores it and realloc copies it
// out. Until resolution completes every pointer below points at a function that resolves first
// and then forwards, so the hot path never tests whether resolution happened.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace jb_alloc {

using MallocFn = void* (*)(std::size_t) noexcept;
using CallocFn = void* (*)(std::size_t, std::size_t) noexcept;
using ReallocFn = void* (*)(void*, std::size_t) noexcept;
using ReallocArrayFn = void* (*)(void*, std::size_t, std::size_t) noexcept;
using FreeFn = void (*)(void*) noexcept;
using PosixMemalignFn = int (*)(void**, std::size_t, std::size_t) noexcept;
using AlignedFn = void* (*)(std::size_t, std::size_t) noexcept;
using UsableSizeFn = std::size_t (*)(void*) noexcept;

// Loaded with relaxed order: each pointer is either the bootstrap forwarder or the real function,
// and both are correct to call.
struct RealAllocator {
  std::atomic<MallocFn> malloc;
  std::atomic<CallocFn> calloc;
  std::atomic<ReallocFn> realloc;
  std::atomic<ReallocArrayFn> reallocarray;
  std::atomic<FreeFn> free;
  std::atomic<PosixMemalignFn> posix_memalign;
  std::atomic<AlignedFn> aligned_alloc;
  std::atomic<AlignedFn> memalign;
  std::atomic<MallocFn> valloc;
  std::atomic<MallocFn> pvalloc;
  std::atomic<UsableSizeFn> malloc_usable_size;
};

// Hidden: the hooks reach it PC-relative, without a GOT load.
extern RealAllocator g_real __attribute__((visibility("hidden")));

// Resolves every pointer of g_real once (thread-safe; later calls return at once). Aborts with
// a message if malloc, calloc, realloc or free cannot be found: nothing could work then.
void resolve_real_allocator() noexcept;

// Whether `p` came from the bootstrap arena (such blocks are never returned to the real free).
inline bool bootstrap_owns(const void* p) noexcept;

// A block of the bootstrap arena, zeroed, aligned to `alignment` (a power of two up to 4096);
// nullptr when the arena is exhausted.
void* bootstrap_allocate(std::size_t bytes, std::size_t alignment) noexcept;

// The size asked for a bootstrap block.
std::size_t bootstrap_size(const void* p) noexcept;

namespace detail {
inline constexpr std::size_t kArenaBytes = 64 * 1024;
extern unsigned char g_arena[kArenaBytes] __attribute__((visibility("hidden")));
}  // namespace detail

inline bool bootstrap_owns(const void* p) noexcept {
  // One subtraction and one comparison: free pays this on every call.
  const auto offset =
      reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(detail::g_arena);
  return offset < detail::kArenaBytes;
}

}  // namespace jb_alloc
