#include "fs_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "jbench/common/runtime_id.h"

namespace jbench::bundle_detail {

void UniqueFd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

int UniqueFd::close_checked() {
  if (fd_ < 0) return 0;
  const int fd = release();
  // Linux always releases the descriptor, even when close reports an error: never retry.
  return ::close(fd) == 0 ? 0 : errno;
}

std::string errno_text(int err) {
  char buf[256];
  // GNU strerror_r returns the message, possibly not in buf.
  const char* text = strerror_r(err, buf, sizeof buf);
  return text ? text : "unknown error";
}

Error sys_error(const std::string& what, int err) {
  return Error{fmt::format("{}: {} (errno {})", what, errno_text(err), err), err};
}

Status check_bundle_path(std::string_view relative) {
  const auto refused = [](const char* why) { return Error{why, 0, ErrorKind::input}; };
  if (relative.empty()) return refused("the path is empty");
  if (relative.front() == '/') return refused("absolute paths are not allowed in a bundle");
  for (const char ch : relative) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      return refused("control characters (newline, tab, NUL...) are not allowed in bundle paths");
    }
    if (c == '\\')
      return refused("backslashes are not allowed in bundle paths (sha256sum escapes them)");
  }
  std::size_t start = 0;
  while (start <= relative.size()) {
    const std::size_t slash = relative.find('/', start);
    const std::size_t end = slash == std::string_view::npos ? relative.size() : slash;
    const std::string_view part = relative.substr(start, end - start);
    if (part.empty()) return refused("empty path component (a doubled or trailing '/')");
    if (part == ".") return refused("'.' components are not allowed in bundle paths");
    if (part == "..") return refused("'..' components are not allowed in bundle paths");
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return {};
}

std::vector<std::string> split_path(std::string_view relative) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = relative.find('/', start);
    if (slash == std::string_view::npos) {
      parts.emplace_back(relative.substr(start));
      return parts;
    }
    parts.emplace_back(relative.substr(start, slash - start));
    start = slash + 1;
  }
}

Result<UniqueFd> open_dir_beneath(int dir_fd, const std::vector<std::string>& components,
                                  bool create, const std::string& label) {
  UniqueFd current(::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!current.valid()) return errno_error("cannot open {}", label);
  std::string walked;
  for (const auto& part : components) {
    walked += walked.empty() ? part : "/" + part;
    if (create && ::mkdirat(current.get(), part.c_str(), 0755) != 0 && errno != EEXIST) {
      return errno_error("cannot create directory '{}' in {}", walked, label);
    }
    UniqueFd next(
        ::openat(current.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next.valid()) {
      const int err = errno;
      const char* hint =
          (err == ELOOP || err == ENOTDIR) ? " (a symlink or a non-directory is in the way)" : "";
      return sys_error(fmt::format("cannot open directory '{}' in {}{}", walked, label, hint), err);
    }
    current = std::move(next);
  }
  return current;
}

Result<UniqueFd> open_file_beneath(int dir_fd, std::string_view relative,
                                   const std::string& label) {
  auto parts = split_path(relative);
  const std::string base = parts.back();
  parts.pop_back();
  auto dir = open_dir_beneath(dir_fd, parts, false, label);
  if (!dir) return dir.error();
  UniqueFd fd(::openat(dir->get(), base.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) {
    return errno_error("cannot open '{}' in {}", relative, label);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return errno_error("cannot stat '{}' in {}", relative, label);
  }
  if (!S_ISREG(st.st_mode)) {
    return Error{fmt::format("'{}' in {} is not a regular file", std::string(relative), label), 0};
  }
  return fd;
}

int write_all(int fd, std::string_view bytes) {
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) return EIO;  // a regular file that accepts nothing: treat as an I/O error
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return 0;
}

std::string random_hex(std::size_t bytes) {
  std::string raw(bytes, '\0');
  if (!system_random_bytes(raw.data(), bytes)) {
    // Uniqueness, not secrecy, is what the names need: mix the clock and a counter in.
    static std::uint64_t counter = 0;
    std::uint64_t x =
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
        (++counter * 0x9e3779b97f4a7c15ULL);
    for (std::size_t i = 0; i < bytes; ++i) {
      x ^= x >> 31;
      x *= 0xbf58476d1ce4e5b9ULL;
      raw[i] = static_cast<char>(x >> 56);
    }
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes);
  for (const char ch : raw) {
    const auto c = static_cast<unsigned char>(ch);
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
  }
  return out;
}

namespace {

std::string type_name(mode_t mode) {
  if (S_ISLNK(mode)) return "symlink";
  if (S_ISFIFO(mode)) return "fifo";
  if (S_ISSOCK(mode)) return "socket";
  if (S_ISBLK(mode)) return "block device";
  if (S_ISCHR(mode)) return "character device";
  return "unknown file type";
}

Status walk_dir(int dir_fd, const std::string& prefix, const std::string& label,
                std::vector<TreeEntry>& out) {
  const int dup_fd = ::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dup_fd < 0) {
    return errno_error("cannot open directory '{}' in {}", prefix, label);
  }
  DIR* dir = ::fdopendir(dup_fd);  // owns dup_fd from here on
  if (dir == nullptr) {
    const int err = errno;
    ::close(dup_fd);
    return sys_error(fmt::format("cannot read directory '{}' in {}", prefix, label), err);
  }
  std::vector<std::string> names;
  while (true) {
    errno = 0;
    const dirent* e = ::readdir(dir);
    if (e == nullptr) {
      if (errno != 0) {
        const int err = errno;
        ::closedir(dir);
        return sys_error(fmt::format("cannot read directory '{}' in {}", prefix, label), err);
      }
      break;
    }
    const std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    names.emplace_back(name);
  }
  Status status;
  for (const auto& name : names) {
    const std::string rel = prefix.empty() ? name : prefix + "/" + name;
    struct stat st {};
    if (::fstatat(::dirfd(dir), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      status = errno_error("cannot stat '{}' in {}", rel, label);
      break;
    }
    if (S_ISREG(st.st_mode)) {
      out.push_back({rel, TreeEntry::Kind::regular, ""});
    } else if (S_ISDIR(st.st_mode)) {
      out.push_back({rel, TreeEntry::Kind::directory, ""});
      const int sub =
          ::openat(::dirfd(dir), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0) {
        status = errno_error("cannot open directory '{}' in {}", rel, label);
        break;
      }
      status = walk_dir(sub, rel, label, out);
      ::close(sub);
      if (!status) break;
    } else {
      out.push_back({rel, TreeEntry::Kind::other, type_name(st.st_mode)});
    }
  }
  ::closedir(dir);
  return status;
}

}  // namespace

Result<std::vector<TreeEntry>> walk_tree(int dir_fd, const std::string& label) {
  std::vector<TreeEntry> entries;
  if (auto s = walk_dir(dir_fd, "", label, entries); !s) return s.error();
  return entries;
}

}  // namespace jbench::bundle_detail
