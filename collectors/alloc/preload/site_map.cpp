#include "site_map.h"

#include <jb_platform.h>

#include <cstddef>
#include <cstring>

namespace jb_alloc {
namespace {

struct Region {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t base = 0;  // where the object's first byte is mapped
  std::uint32_t path = 0;  // offset into g_paths
};

// A process rarely maps more than a few hundred file regions; the tables are zero pages until
// used.
constexpr std::size_t kMaxRegions = 8192;
constexpr std::size_t kPathBytes = 256 * 1024;
Region g_regions[kMaxRegions];
std::size_t g_region_count = 0;
char g_paths[kPathBytes];
std::size_t g_paths_used = 0;

// One file-backed mapping, as the platform lists them in address order.
void add_mapping(void*, std::uint64_t start, std::uint64_t end, std::uint64_t offset,
                 const char* path) {
  if (g_region_count == kMaxRegions) return;
  Region r{start, end, start - offset, 0};
  const Region* prev = g_region_count ? &g_regions[g_region_count - 1] : nullptr;
  if (prev && std::strcmp(g_paths + prev->path, path) == 0) {
    // The next segment of the same object: same path, same base.
    r.path = prev->path;
    r.base = prev->base;
  } else {
    const std::size_t n = std::strlen(path) + 1;
    if (g_paths_used + n > kPathBytes) return;
    std::memcpy(g_paths + g_paths_used, path, n);
    r.path = static_cast<std::uint32_t>(g_paths_used);
    g_paths_used += n;
  }
  g_regions[g_region_count++] = r;
}

}  // namespace

void load_site_map() noexcept {
  g_region_count = 0;
  g_paths_used = 0;
  jb_platform_for_each_mapping(&add_mapping, nullptr);
}

bool find_site(std::uint64_t address, const char*& path, std::uint64_t& offset) noexcept {
  // The kernel lists mappings in address order: binary search for the last start <= address.
  std::size_t lo = 0;
  std::size_t hi = g_region_count;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (g_regions[mid].start <= address) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == 0) return false;
  const Region& r = g_regions[lo - 1];
  if (address >= r.end) return false;
  path = g_paths + r.path;
  offset = address - r.base;
  return true;
}

}  // namespace jb_alloc
