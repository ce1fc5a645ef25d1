#include "real_allocator.h"

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace jb_alloc {
namespace detail {
alignas(4096) unsigned char g_arena[kArenaBytes];
}  // namespace detail

namespace {

using detail::g_arena;
using detail::kArenaBytes;

// The arena is a bump allocator: blocks are never reused, which is fine for the handful of
// allocations dlsym makes once. Each block is preceded by its requested size.
constexpr std::size_t kHeader = 16;
std::atomic<std::size_t> g_arena_used{0};

// Set on the thread running dlsym: its allocations must come from the arena. Other threads wait
// on the pthread_once instead.
__thread bool t_resolving = false;
pthread_once_t g_resolve_once = PTHREAD_ONCE_INIT;

[[noreturn]] void die(const char* what) noexcept {
  const char prefix[] = "jbench-alloc: cannot find the real ";
  [[maybe_unused]] auto a = ::write(STDERR_FILENO, prefix, sizeof prefix - 1);
  [[maybe_unused]] auto b = ::write(STDERR_FILENO, what, std::strlen(what));
  const char suffix[] =
      " after this library (dlsym RTLD_NEXT); is it preloaded into a program "
      "that links glibc dynamically?\n";
  [[maybe_unused]] auto c = ::write(STDERR_FILENO, suffix, sizeof suffix - 1);
  ::abort();
}

template <typename Fn>
Fn next(const char* name, bool required) noexcept {
  void* sym = ::dlsym(RTLD_NEXT, name);
  if (!sym && required) die(name);
  return reinterpret_cast<Fn>(sym);
}

// Functions glibc may lack in some build (never on Debian 12, but the hook must not crash):
// behave as an allocator that is out of memory.
void* no_aligned(std::size_t, std::size_t) noexcept {
  errno = ENOMEM;
  return nullptr;
}
void* no_malloc(std::size_t) noexcept {
  errno = ENOMEM;
  return nullptr;
}
void* no_reallocarray(void*, std::size_t, std::size_t) noexcept {
  errno = ENOMEM;
  return nullptr;
}
int no_posix_memalign(void**, std::size_t, std::size_t) noexcept { return ENOMEM; }
std::size_t no_usable_size(void*) noexcept { return 0; }

void resolve_all() noexcept {
  t_resolving = true;
  auto* m = next<MallocFn>("malloc", true);
  auto* c = next<CallocFn>("calloc", true);
  auto* r = next<ReallocFn>("realloc", true);
  auto* f = next<FreeFn>("free", true);
  auto* ra = next<ReallocArrayFn>("reallocarray", false);
  auto* pm = next<PosixMemalignFn>("posix_memalign", false);
  auto* aa = next<AlignedFn>("aligned_alloc", false);
  auto* ma = next<AlignedFn>("memalign", false);
  auto* va = next<MallocFn>("valloc", false);
  auto* pv = next<MallocFn>("pvalloc", false);
  auto* us = next<UsableSizeFn>("malloc_usable_size", false);
  g_real.calloc.store(c, std::memory_order_relaxed);
  g_real.realloc.store(r, std::memory_order_relaxed);
  g_real.free.store(f, std::memory_order_relaxed);
  g_real.reallocarray.store(ra ? ra : &no_reallocarray, std::memory_order_relaxed);
  g_real.posix_memalign.store(pm ? pm : &no_posix_memalign, std::memory_order_relaxed);
  g_real.aligned_alloc.store(aa ? aa : &no_aligned, std::memory_order_relaxed);
  g_real.memalign.store(ma ? ma : &no_aligned, std::memory_order_relaxed);
  g_real.valloc.store(va ? va : &no_malloc, std::memory_order_relaxed);
  g_real.pvalloc.store(pv ? pv : &no_malloc, std::memory_order_relaxed);
  g_real.malloc_usable_size.store(us ? us : &no_usable_size, std::memory_order_relaxed);
  g_real.malloc.store(m, std::memory_order_release);
  t_resolving = false;
}

// The forwarders g_real starts with: resolve, then call the real function. While this thread is
// inside dlsym they serve from the arena instead.
void* first_malloc(std::size_t n) noexcept {
  if (t_resolving) return bootstrap_allocate(n, 16);
  resolve_real_allocator();
  return g_real.malloc.load(std::memory_order_relaxed)(n);
}
void* first_calloc(std::size_t n, std::size_t size) noexcept {
  if (t_resolving) {
    if (size != 0 && n > SIZE_MAX / size) return nullptr;
    return bootstrap_allocate(n * size, 16);  // the arena is zero and never reused
  }
  resolve_real_allocator();
  return g_real.calloc.load(std::memory_order_relaxed)(n, size);
}
void* first_realloc(void* p, std::size_t n) noexcept {
  if (t_resolving) {
    void* fresh = bootstrap_allocate(n, 16);
    if (fresh && p) std::memcpy(fresh, p, bootstrap_owns(p) ? bootstrap_size(p) : 0);
    return fresh;
  }
  resolve_real_allocator();
  return g_real.realloc.load(std::memory_order_relaxed)(p, n);
}
void* first_reallocarray(void* p, std::size_t n, std::size_t size) noexcept {
  if (size != 0 && n > SIZE_MAX / size) {
    errno = ENOMEM;
    return nullptr;
  }
  if (t_resolving) return first_realloc(p, n * size);
  resolve_real_allocator();
  return g_real.reallocarray.load(std::memory_order_relaxed)(p, n, size);
}
void first_free(void* p) noexcept {
  if (t_resolving || bootstrap_owns(p)) return;
  resolve_real_allocator();
  g_real.free.load(std::memory_order_relaxed)(p);
}
int first_posix_memalign(void** out, std::size_t alignment, std::size_t n) noexcept {
  if (t_resolving) {
    *out = bootstrap_allocate(n, alignment);
    return *out ? 0 : ENOMEM;
  }
  resolve_real_allocator();
  return g_real.posix_memalign.load(std::memory_order_relaxed)(out, alignment, n);
}
void* first_aligned_alloc(std::size_t alignment, std::size_t n) noexcept {
  if (t_resolving) return bootstrap_allocate(n, alignment);
  resolve_real_allocator();
  return g_real.aligned_alloc.load(std::memory_order_relaxed)(alignment, n);
}
void* first_memalign(std::size_t alignment, std::size_t n) noexcept {
  if (t_resolving) return bootstrap_allocate(n, alignment);
  resolve_real_allocator();
  return g_real.memalign.load(std::memory_order_relaxed)(alignment, n);
}
void* first_valloc(std::size_t n) noexcept {
  if (t_resolving) return bootstrap_allocate(n, 4096);
  resolve_real_allocator();
  return g_real.valloc.load(std::memory_order_relaxed)(n);
}
void* first_pvalloc(std::size_t n) noexcept {
  if (t_resolving) return bootstrap_allocate(n, 4096);
  resolve_real_allocator();
  return g_real.pvalloc.load(std::memory_order_relaxed)(n);
}
std::size_t first_usable_size(void* p) noexcept {
  if (bootstrap_owns(p)) return bootstrap_size(p);
  resolve_real_allocator();
  return g_real.malloc_usable_size.load(std::memory_order_relaxed)(p);
}

}  // namespace

RealAllocator g_real = {
    {&first_malloc}, {&first_calloc},         {&first_realloc},       {&first_reallocarray},
    {&first_free},   {&first_posix_memalign}, {&first_aligned_alloc}, {&first_memalign},
    {&first_valloc}, {&first_pvalloc},        {&first_usable_size},
};

void resolve_real_allocator() noexcept { ::pthread_once(&g_resolve_once, &resolve_all); }

void* bootstrap_allocate(std::size_t bytes, std::size_t alignment) noexcept {
  if (alignment < 16) alignment = 16;
  if (alignment > 4096 || (alignment & (alignment - 1)) != 0 || bytes > kArenaBytes) {
    return nullptr;
  }
  std::size_t used = g_arena_used.load(std::memory_order_relaxed);
  for (;;) {
    // The block starts at the first aligned address leaving room for the header before it.
    const std::size_t start = (used + kHeader + alignment - 1) & ~(alignment - 1);
    const std::size_t end = start + bytes;
    if (end > kArenaBytes) return nullptr;
    if (g_arena_used.compare_exchange_weak(used, end, std::memory_order_relaxed)) {
      std::memcpy(g_arena + start - kHeader, &bytes, sizeof bytes);
      return g_arena + start;
    }
  }
}

std::size_t bootstrap_size(const void* p) noexcept {
  std::size_t bytes = 0;
  std::memcpy(&bytes, static_cast<const unsigned char*>(p) - kHeader, sizeof bytes);
  return bytes;
}

}  // namespace jb_alloc
