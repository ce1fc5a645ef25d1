// Owning handles for libarchive objects and file descriptors. Private to jbench::archive.
#pragma once

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>

#include "jbench/archive/archive.h"

namespace jbench::archive {

struct ReadFree {
  void operator()(struct archive* a) const { archive_read_free(a); }
};
struct WriteFree {
  void operator()(struct archive* a) const { archive_write_free(a); }
};
struct EntryFree {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};
using ArchiveReader = std::unique_ptr<struct archive, ReadFree>;
using ArchiveWriter = std::unique_ptr<struct archive, WriteFree>;
using ArchiveEntry = std::unique_ptr<archive_entry, EntryFree>;

// A failed system call's error: what failed, and errno's text and number.
inline Error sys_error(const std::string& what, int err) {
  return Error{fmt::format("{}: {}", what, std::strerror(err)), err};
}

// libarchive's message for its last error, never null.
inline std::string archive_message(struct archive* a) {
  const char* s = archive_error_string(a);
  return s ? s : "unknown libarchive error";
}

class UniqueFd {
 public:
  explicit UniqueFd(int fd = -1) : fd_(fd) {}
  ~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept {
    if (this != &o) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = o.release();
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

}  // namespace jbench::archive
