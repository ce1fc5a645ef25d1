// Internal file-system helpers of jbench::bundle: descriptors that close themselves, errno
// messages, bundle path rules, and walking a directory tree without following symlinks.
#pragma once

#include <fmt/format.h>

#include <cerrno>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jbench/common/result.h"

namespace jbench::bundle_detail {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = other.release();
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset();
  // close(2) and its error (NFS and some FUSE file systems report write errors only there).
  int close_checked();

 private:
  int fd_ = -1;
};

std::string errno_text(int err);

// "<what>: <strerror> (errno <n>)", carrying `err`.
Error sys_error(const std::string& what, int err);

// sys_error with the current errno, read before the message is formatted (formatting allocates,
// and an allocation may change errno). Pass arguments that do not allocate.
template <typename... Args>
Error errno_error(fmt::format_string<Args...> format, Args&&... args) {
  const int err = errno;
  return sys_error(fmt::format(format, std::forward<Args>(args)...), err);
}

// Whether `relative` may name a file inside a bundle, and if not why. Refused: empty paths,
// absolute paths, empty, "." and ".." components, a trailing slash, and control characters
// (sha256sum escapes newlines, so such names would not round-trip) and backslashes (likewise).
Status check_bundle_path(std::string_view relative);

// "a/b/c" -> {"a", "b", "c"}; call only on paths check_bundle_path accepted.
std::vector<std::string> split_path(std::string_view relative);

// Opens the directory `components` below `dir_fd`, never following a symlink (a symlink where a
// directory is expected fails with ELOOP or ENOTDIR). With `create`, missing directories are made.
Result<UniqueFd> open_dir_beneath(int dir_fd, const std::vector<std::string>& components,
                                  bool create, const std::string& label);

// Opens the regular file `relative` below `dir_fd` for reading, never following a symlink.
Result<UniqueFd> open_file_beneath(int dir_fd, std::string_view relative, const std::string& label);

// Writes every byte (retrying short writes and EINTR); errno on failure.
int write_all(int fd, std::string_view bytes);

// Random lowercase hex (system_random_bytes; a clock-based fallback if the system refuses).
std::string random_hex(std::size_t bytes);

struct TreeEntry {
  std::string relative;  // "/"-separated, relative to the walked directory
  enum class Kind { regular, directory, other } kind;
  std::string other_type;  // for Kind::other: "symlink", "fifo", "socket", "block device", ...
};

// Every entry below `dir_fd` (not `dir_fd` itself), depth first, without following symlinks.
Result<std::vector<TreeEntry>> walk_tree(int dir_fd, const std::string& label);

}  // namespace jbench::bundle_detail
