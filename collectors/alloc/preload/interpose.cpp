// The interposed allocation functions: every function of glibc's malloc API that returns new
// memory (glibc manual, "Replacing malloc"), plus reallocarray, which glibc implements without
// calling realloc. free and malloc_usable_size are interposed only to recognise bootstrap blocks.
//
// Bytes counted per call: malloc, valloc, pvalloc, aligned_alloc, memalign, posix_memalign: the
// size asked; calloc and reallocarray: count x size; realloc: the new size (a realloc is a new
// allocation of that size, whether or not the block moved; realloc(p, 0) frees and counts 0).
//
// Each hook first takes its bytes off the thread's counter. Almost always no sample point falls
// in them and the hook ends in a tail call to the real function: no frame, nothing after it. The
// rare call that holds a point goes to a cold function that calls the real allocator and then
// records the block it returned.
#include <malloc.h>
#include <stdlib.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "real_allocator.h"
#include "sampler.h"

#define JB_EXPORT extern "C" __attribute__((visibility("default")))
#define JB_COLD __attribute__((noinline, cold))

namespace {

using jb_alloc::bootstrap_owns;
using jb_alloc::Call;
using jb_alloc::g_real;
using jb_alloc::on_sample_point;
using jb_alloc::stays_unsampled;

constexpr auto kRelaxed = std::memory_order_relaxed;

// A bootstrap block being reallocated after resolution: copy it into the real heap.
void* move_out_of_arena(void* p, std::size_t n) {
  void* fresh = g_real.malloc.load(kRelaxed)(n);
  if (fresh) {
    const std::size_t old = jb_alloc::bootstrap_size(p);
    std::memcpy(fresh, p, old < n ? old : n);
  }
  return fresh;
}

void* forward_realloc(void* old, std::size_t n) {
  return bootstrap_owns(old) ? move_out_of_arena(old, n) : g_real.realloc.load(kRelaxed)(old, n);
}

JB_COLD void* sampled_malloc(std::size_t n, const void* site) {
  void* p = g_real.malloc.load(kRelaxed)(n);
  on_sample_point(n, p, Call::malloc, site);
  return p;
}
JB_COLD void* sampled_calloc(std::size_t n, std::size_t size, std::size_t bytes, const void* site) {
  void* p = g_real.calloc.load(kRelaxed)(n, size);
  on_sample_point(bytes, p, Call::calloc, site);
  return p;
}
JB_COLD void* sampled_realloc(void* old, std::size_t n, const void* site) {
  void* p = forward_realloc(old, n);
  on_sample_point(n, p, Call::realloc, site);
  return p;
}
JB_COLD void* sampled_reallocarray(void* old, std::size_t n, std::size_t size, std::size_t bytes,
                                   const void* site) {
  void* p = bootstrap_owns(old) ? move_out_of_arena(old, bytes)
                                : g_real.reallocarray.load(kRelaxed)(old, n, size);
  on_sample_point(bytes, p, Call::reallocarray, site);
  return p;
}
JB_COLD int sampled_posix_memalign(void** out, std::size_t alignment, std::size_t n,
                                   const void* site) {
  const int rc = g_real.posix_memalign.load(kRelaxed)(out, alignment, n);
  on_sample_point(n, rc == 0 ? *out : nullptr, Call::posix_memalign, site);
  return rc;
}
JB_COLD void* sampled_aligned(std::size_t alignment, std::size_t n, Call call, const void* site) {
  void* p = call == Call::aligned_alloc ? g_real.aligned_alloc.load(kRelaxed)(alignment, n)
                                        : g_real.memalign.load(kRelaxed)(alignment, n);
  on_sample_point(n, p, call, site);
  return p;
}
JB_COLD void* sampled_page_aligned(std::size_t n, Call call, const void* site) {
  void* p =
      call == Call::valloc ? g_real.valloc.load(kRelaxed)(n) : g_real.pvalloc.load(kRelaxed)(n);
  on_sample_point(n, p, call, site);
  return p;
}

}  // namespace

JB_EXPORT void* malloc(std::size_t n) noexcept {
  if (stays_unsampled(n)) return g_real.malloc.load(kRelaxed)(n);
  return sampled_malloc(n, __builtin_return_address(0));
}

JB_EXPORT void free(void* p) noexcept {
  if (bootstrap_owns(p)) return;
  g_real.free.load(kRelaxed)(p);
}

JB_EXPORT void* calloc(std::size_t n, std::size_t size) noexcept {
  std::size_t bytes = 0;
  // An overflowing product is the real calloc's to refuse; it allocates nothing to count.
  if (__builtin_mul_overflow(n, size, &bytes) || stays_unsampled(bytes)) {
    return g_real.calloc.load(kRelaxed)(n, size);
  }
  return sampled_calloc(n, size, bytes, __builtin_return_address(0));
}

JB_EXPORT void* realloc(void* old, std::size_t n) noexcept {
  if (stays_unsampled(n)) return forward_realloc(old, n);
  return sampled_realloc(old, n, __builtin_return_address(0));
}

JB_EXPORT void* reallocarray(void* old, std::size_t n, std::size_t size) noexcept {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(n, size, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  if (stays_unsampled(bytes)) {
    return bootstrap_owns(old) ? move_out_of_arena(old, bytes)
                               : g_real.reallocarray.load(kRelaxed)(old, n, size);
  }
  return sampled_reallocarray(old, n, size, bytes, __builtin_return_address(0));
}

JB_EXPORT int posix_memalign(void** out, std::size_t alignment, std::size_t n) noexcept {
  if (stays_unsampled(n)) return g_real.posix_memalign.load(kRelaxed)(out, alignment, n);
  return sampled_posix_memalign(out, alignment, n, __builtin_return_address(0));
}

JB_EXPORT void* aligned_alloc(std::size_t alignment, std::size_t n) noexcept {
  if (stays_unsampled(n)) return g_real.aligned_alloc.load(kRelaxed)(alignment, n);
  return sampled_aligned(alignment, n, Call::aligned_alloc, __builtin_return_address(0));
}

JB_EXPORT void* memalign(std::size_t alignment, std::size_t n) noexcept {
  if (stays_unsampled(n)) return g_real.memalign.load(kRelaxed)(alignment, n);
  return sampled_aligned(alignment, n, Call::memalign, __builtin_return_address(0));
}

JB_EXPORT void* valloc(std::size_t n) noexcept {
  if (stays_unsampled(n)) return g_real.valloc.load(kRelaxed)(n);
  return sampled_page_aligned(n, Call::valloc, __builtin_return_address(0));
}

JB_EXPORT void* pvalloc(std::size_t n) noexcept {
  if (stays_unsampled(n)) return g_real.pvalloc.load(kRelaxed)(n);
  return sampled_page_aligned(n, Call::pvalloc, __builtin_return_address(0));
}

JB_EXPORT std::size_t malloc_usable_size(void* p) noexcept {
  if (bootstrap_owns(p)) return jb_alloc::bootstrap_size(p);
  return g_real.malloc_usable_size.load(kRelaxed)(p);
}
