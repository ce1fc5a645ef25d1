#include "site_map.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
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

// Parses a hex number at p; advances p past it.
std::uint64_t hex(const char*& p) {
  std::uint64_t v = 0;
  for (;; ++p) {
    const char c = *p;
    if (c >= '0' && c <= '9') {
      v = v * 16 + static_cast<std::uint64_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v = v * 16 + static_cast<std::uint64_t>(c - 'a' + 10);
    } else {
      return v;
    }
  }
}

void skip_field(const char*& p) {
  while (*p && *p != ' ') ++p;
  while (*p == ' ') ++p;
}

// One line of /proc/self/maps: "start-end perms offset dev inode   path".
void add_line(const char* line) {
  const char* p = line;
  const std::uint64_t start = hex(p);
  if (*p++ != '-') return;
  const std::uint64_t end = hex(p);
  while (*p == ' ') ++p;
  skip_field(p);  // perms
  const std::uint64_t offset = hex(p);
  while (*p == ' ') ++p;
  skip_field(p);                                           // dev
  skip_field(p);                                           // inode
  if (*p != '/' || g_region_count == kMaxRegions) return;  // anonymous, [heap], [vdso]…

  Region r{start, end, start - offset, 0};
  const Region* prev = g_region_count ? &g_regions[g_region_count - 1] : nullptr;
  if (prev && std::strcmp(g_paths + prev->path, p) == 0) {
    // The next segment of the same object: same path, same base.
    r.path = prev->path;
    r.base = prev->base;
  } else {
    const std::size_t n = std::strlen(p) + 1;
    if (g_paths_used + n > kPathBytes) return;
    std::memcpy(g_paths + g_paths_used, p, n);
    r.path = static_cast<std::uint32_t>(g_paths_used);
    g_paths_used += n;
  }
  g_regions[g_region_count++] = r;
}

}  // namespace

void load_site_map() noexcept {
  g_region_count = 0;
  g_paths_used = 0;
  const int fd = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char chunk[16384];
  char line[4096 + 256];
  std::size_t used = 0;
  bool overlong = false;
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (chunk[i] == '\n') {
        line[used] = '\0';
        if (!overlong) add_line(line);
        used = 0;
        overlong = false;
      } else if (used + 1 < sizeof line) {
        line[used++] = chunk[i];
      } else {
        overlong = true;  // a path longer than PATH_MAX: leave that mapping out
      }
    }
  }
  ::close(fd);
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
