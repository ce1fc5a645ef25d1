#include "jbench/provenance/binaries.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "jbench/bundle/sha256sums.h"
#include "jbench/common/small_file.h"
#include "jbench/provenance/elf_info.h"
#include "proc_files.h"

namespace jbench {
namespace {

constexpr std::string_view kDeletedSuffix = " (deleted)";

struct CacheKey {
  std::string path;
  dev_t dev;
  ino_t ino;
  off_t size;
  std::int64_t mtime_ns;
  bool operator<(const CacheKey& o) const {
    return std::tie(path, dev, ino, size, mtime_ns) <
           std::tie(o.path, o.dev, o.ino, o.size, o.mtime_ns);
  }
};

struct Cache {
  std::mutex mutex;
  std::map<CacheKey, nlohmann::json> entries;
  DescribeCacheStats stats;
};

Cache& cache() {
  static Cache c;
  return c;
}

std::int64_t mtime_ns(const struct stat& st) {
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

nlohmann::json error_entry(const std::string& path, const std::string& error) {
  return {{"path", path}, {"error", error}};
}

std::optional<std::string> read_link(const std::string& path, std::string& why) {
  std::string buf(4096, '\0');
  const ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
  if (n < 0) {
    why = fmt::format("cannot read link {}: {}", path, std::strerror(errno));
    return std::nullopt;
  }
  buf.resize(static_cast<std::size_t>(n));
  return buf;
}

bool strip_deleted(std::string& path) {
  if (path.size() > kDeletedSuffix.size() &&
      path.compare(path.size() - kDeletedSuffix.size(), kDeletedSuffix.size(), kDeletedSuffix) ==
          0) {
    path.resize(path.size() - kDeletedSuffix.size());
    return true;
  }
  return false;
}

}  // namespace

nlohmann::json describe_binary(const std::string& path, const std::string& read_path) {
  const std::string source = read_path.empty() ? path : read_path;
  const int fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return error_entry(path, fmt::format("cannot open {}: {}", source, std::strerror(errno)));
  struct stat before {};
  if (::fstat(fd, &before) != 0) {
    const int err = errno;
    ::close(fd);
    return error_entry(path, fmt::format("cannot stat {}: {}", source, std::strerror(err)));
  }
  if (!S_ISREG(before.st_mode)) {
    ::close(fd);
    return error_entry(path, fmt::format("{} is not a regular file", source));
  }
  const CacheKey key{path, before.st_dev, before.st_ino, before.st_size, mtime_ns(before)};
  {
    std::lock_guard lock(cache().mutex);
    if (auto it = cache().entries.find(key); it != cache().entries.end()) {
      ++cache().stats.hits;
      ::close(fd);
      return it->second;
    }
    ++cache().stats.misses;
  }

  nlohmann::json d;
  d["path"] = path;
  d["size_bytes"] = static_cast<std::uint64_t>(before.st_size);
  auto digest = fd_sha256(fd, source);
  d["sha256"] = digest ? nlohmann::json(*digest) : nlohmann::json(nullptr);
  if (!digest) d["error"] = digest.error().message;
  const ElfInfo elf = read_elf_info_fd(fd, source);
  d["is_elf"] = elf.is_elf;
  d["elf_type"] = elf.type.empty() ? nlohmann::json(nullptr) : nlohmann::json(elf.type);
  d["machine"] = elf.machine.empty() ? nlohmann::json(nullptr) : nlohmann::json(elf.machine);
  d["build_id"] = elf.build_id.empty() ? nlohmann::json(nullptr) : nlohmann::json(elf.build_id);
  d["has_debug_info"] = elf.has_debug_info;
  d["has_symtab"] = elf.has_symtab;
  std::optional<std::string> debug = elf.separate_debug_file;
  std::string via = elf.separate_debug_via;
  if (!debug && !elf.debuglink.empty()) {
    debug = resolve_debuglink(path, elf);
    via = "gnu_debuglink";
  }
  d["separate_debug_file"] = debug ? nlohmann::json(*debug) : nlohmann::json(nullptr);
  d["separate_debug_via"] = debug ? nlohmann::json(via) : nlohmann::json(nullptr);
  d["debuglink"] = elf.debuglink.empty() ? nlohmann::json(nullptr) : nlohmann::json(elf.debuglink);
  if (!elf.error.empty()) d["elf_error"] = elf.error;

  struct stat after {};
  const bool unchanged = ::fstat(fd, &after) == 0 && after.st_size == before.st_size &&
                         mtime_ns(after) == mtime_ns(before);
  ::close(fd);
  if (!unchanged) {
    d["changed_while_reading"] = true;
  } else if (digest) {
    std::lock_guard lock(cache().mutex);
    cache().entries.emplace(key, d);
  }
  return d;
}

std::vector<MappedFile> parse_proc_maps(std::string_view text) {
  std::vector<MappedFile> files;
  std::set<std::string> seen;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(start, end - start));
    start = end + 1;
    // "<start>-<end> <perms> <offset> <dev> <inode>   <path>"; the path may contain spaces.
    char range[64] = {};
    char perms[8] = {};
    int path_at = 0;
    if (std::sscanf(line.c_str(), "%63s %7s %*s %*s %*s %n", range, perms, &path_at) != 2 ||
        path_at <= 0) {
      continue;
    }
    if (std::strlen(perms) < 3 || perms[2] != 'x') continue;
    std::string path = line.substr(static_cast<std::size_t>(path_at));
    if (path.empty() || path.front() != '/') continue;  // anonymous or [vdso], [anon:...]
    const bool deleted = strip_deleted(path);
    if (!seen.insert(path).second) continue;
    files.push_back({path, deleted, range});
  }
  return files;
}

MappedFiles mapped_files(pid_t pid, const std::string& root) {
  MappedFiles out;
  std::string why;
  const std::string proc = fmt::format("{}/proc/{}", root, pid);
  if (auto exe = read_link(proc + "/exe", why)) {
    out.exe = *exe;
    out.exe_deleted = strip_deleted(out.exe);
  } else {
    out.error = why;
  }
  auto maps = read_small_file(proc + "/maps", 64 << 20);
  if (!maps) {
    out.error += (out.error.empty() ? "" : "; ") + maps.error().message;
    return out;
  }
  for (auto& f : parse_proc_maps(*maps)) {
    if (f.path == out.exe) continue;
    out.libraries.push_back(std::move(f));
  }
  return out;
}

std::vector<ProcessBinary> process_binaries(pid_t pid) {
  std::vector<ProcessBinary> list;
  const MappedFiles m = mapped_files(pid);
  if (m.exe.empty() && m.libraries.empty()) {
    list.push_back({{{"pid", pid}, {"error", m.error}}, ""});
    return list;
  }
  if (!m.exe.empty()) {
    const std::string read_path = fmt::format("/proc/{}/exe", pid);
    auto d = describe_binary(m.exe, read_path);
    d["role"] = "exe";
    d["deleted"] = m.exe_deleted;
    list.push_back({std::move(d), read_path});
  } else {
    list.push_back({{{"pid", pid}, {"role", "exe"}, {"error", m.error}}, ""});
  }
  for (const auto& f : m.libraries) {
    const std::string read_path =
        f.deleted ? fmt::format("/proc/{}/map_files/{}", pid, f.address_range) : f.path;
    auto d = describe_binary(f.path, f.deleted ? read_path : "");
    d["role"] = "mapped";
    d["deleted"] = f.deleted;
    list.push_back({std::move(d), read_path});
  }
  return list;
}

nlohmann::json process_provenance(pid_t pid) {
  nlohmann::json list = nlohmann::json::array();
  for (auto& b : process_binaries(pid)) list.push_back(std::move(b.description));
  return list;
}

DescribeCacheStats describe_cache_stats() {
  std::lock_guard lock(cache().mutex);
  return cache().stats;
}

}  // namespace jbench
