#include "jbench/bundle/staging_bundle.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <utility>

#include "fs_util.h"
#include "jbench/bundle/sha256sums.h"
#include "jbench/common/rename.h"

namespace jbench {
namespace {

using bundle_detail::check_bundle_path;
using bundle_detail::errno_error;
using bundle_detail::open_dir_beneath;
using bundle_detail::open_file_beneath;
using bundle_detail::split_path;
using bundle_detail::sys_error;
using bundle_detail::UniqueFd;

constexpr std::array<Outcome, 3> kOutcomes = {Outcome::complete, Outcome::interrupted,
                                              Outcome::invalid};

// Whether `name` can be a bundle name, and if not why.
Status check_bundle_name(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    return Error{"a bundle name is one path component (no '/')", 0, ErrorKind::input};
  }
  if (!name.empty() && name.front() == '.') {
    return Error{"a bundle name may not start with '.' (hidden names are reserved for staging)", 0,
                 ErrorKind::input};
  }
  return check_bundle_path(name);
}

// Whether out_fd/<name> exists (as anything, a dangling symlink included); errno text on failure.
Result<bool> exists_at(int out_fd, const std::string& name, const std::string& out_dir) {
  struct stat st {};
  if (::fstatat(out_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) return true;
  if (errno == ENOENT) return false;
  return errno_error("cannot check whether {}/{} exists", out_dir, name);
}

// Refuses when any form (complete, .interrupted, .invalid) of the bundle name exists.
Status check_no_final_form(int out_fd, const std::string& out_dir, const std::string& name) {
  for (const Outcome o : kOutcomes) {
    const std::string candidate = name + std::string(outcome_suffix(o));
    auto exists = exists_at(out_fd, candidate, out_dir);
    if (!exists) return exists.error();
    if (*exists) {
      return Error{fmt::format("a bundle named {}/{} already exists; bundles are never "
                               "overwritten: choose another name or move it away",
                               out_dir, candidate),
                   EEXIST};
    }
  }
  return {};
}

// Where a write of `rel` lands: the folder that holds it (made if missing, never through a
// symlink) and its last component; or why it may not be written. `verb` words the refusal
// ("write", "append to"). The checks every write, append and link of a bundle passes.
struct Target {
  UniqueFd dir;
  std::string base;
};

// A planted fault (docs/bundle.md): JBENCH_FAULT_WRITE holds a pattern of bundle-relative paths
// (fnmatch(3); `*` does not cross '/'), and every write, append, copy or link to a path it
// matches fails with EIO, as a failing disk's would. The fault tests plant it in a command's
// environment to check that each step of each command ends the same way.
bool planted_write_fault(const std::string& rel) {
  const char* pattern = std::getenv("JBENCH_FAULT_WRITE");
  return pattern != nullptr && *pattern != '\0' &&
         ::fnmatch(pattern, rel.c_str(), FNM_PATHNAME) == 0;
}
Result<Target> open_target(int root_fd, const std::string& root, bool finalized,
                           const std::string& rel, std::string_view verb, bool allow_reserved) {
  if (finalized || root_fd < 0) {
    return Error{fmt::format("cannot {} '{}': the bundle is already finalized", verb, rel), 0};
  }
  if (const Status safe = check_bundle_path(rel); !safe) {
    return Error{
        fmt::format("refusing to {} '{}' in {}: {}", verb, rel, root, safe.error().message), 0};
  }
  if (!allow_reserved && rel == kSha256SumsName) {
    return Error{fmt::format("refusing to {} '{}' in {}: finalize() writes it", verb, rel, root),
                 0};
  }
  if (planted_write_fault(rel)) {
    return sys_error(fmt::format("cannot {} '{}' in {} (JBENCH_FAULT_WRITE)", verb, rel, root),
                     EIO);
  }
  auto parts = split_path(rel);
  Target t;
  t.base = parts.back();
  parts.pop_back();
  auto dir = open_dir_beneath(root_fd, parts, true, root);
  if (!dir) return dir.error();
  t.dir = std::move(*dir);
  return t;
}

}  // namespace

std::string_view outcome_suffix(Outcome outcome) {
  switch (outcome) {
    case Outcome::complete:
      return "";
    case Outcome::interrupted:
      return ".interrupted";
    case Outcome::invalid:
      return ".invalid";
  }
  return ".invalid";
}

Result<StagingBundle> StagingBundle::create(const std::string& out_dir, const std::string& name) {
  if (out_dir.empty()) return Error{"the output directory is empty", 0};
  if (const Status named = check_bundle_name(name); !named) {
    return Error{fmt::format("invalid bundle name '{}': {}", name, named.error().message), 0};
  }
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return sys_error(fmt::format("cannot create output directory {}", out_dir), ec.value());

  StagingBundle b;
  b.out_dir_ = out_dir;
  while (b.out_dir_.size() > 1 && b.out_dir_.back() == '/') b.out_dir_.pop_back();
  b.name_ = name;
  b.out_fd_ = ::open(b.out_dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (b.out_fd_ < 0) return errno_error("cannot open {}", b.out_dir_);
  if (auto s = check_no_final_form(b.out_fd_, b.out_dir_, name); !s) return s.error();

  for (int attempt = 0;; ++attempt) {
    b.staging_name_ =
        fmt::format(".staging-{}-{}-{}", name, ::getpid(), bundle_detail::random_hex(6));
    if (::mkdirat(b.out_fd_, b.staging_name_.c_str(), 0755) == 0) break;
    if (errno != EEXIST || attempt == 8) {
      return errno_error("cannot create staging directory {}/{}", b.out_dir_, b.staging_name_);
    }
  }
  b.root_ = b.out_dir_ == "/" ? "/" + b.staging_name_ : b.out_dir_ + "/" + b.staging_name_;
  b.root_fd_ =
      ::openat(b.out_fd_, b.staging_name_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (b.root_fd_ < 0) return errno_error("cannot open {}", b.root_);
  return b;
}

StagingBundle::StagingBundle(StagingBundle&& other) noexcept
    : out_dir_(std::move(other.out_dir_)),
      name_(std::move(other.name_)),
      staging_name_(std::move(other.staging_name_)),
      root_(std::move(other.root_)),
      out_fd_(std::exchange(other.out_fd_, -1)),
      root_fd_(std::exchange(other.root_fd_, -1)),
      finalized_(other.finalized_) {}

StagingBundle& StagingBundle::operator=(StagingBundle&& other) noexcept {
  if (this != &other) {
    close_fds();
    out_dir_ = std::move(other.out_dir_);
    name_ = std::move(other.name_);
    staging_name_ = std::move(other.staging_name_);
    root_ = std::move(other.root_);
    out_fd_ = std::exchange(other.out_fd_, -1);
    root_fd_ = std::exchange(other.root_fd_, -1);
    finalized_ = other.finalized_;
  }
  return *this;
}

StagingBundle::~StagingBundle() { close_fds(); }

void StagingBundle::close_fds() {
  if (out_fd_ >= 0) ::close(out_fd_);
  if (root_fd_ >= 0) ::close(root_fd_);
  out_fd_ = -1;
  root_fd_ = -1;
}

Status StagingBundle::write_file(std::string_view relative, std::string_view bytes) {
  return write_at(relative, bytes, false);
}

Status StagingBundle::write_json(std::string_view relative, const nlohmann::json& doc,
                                 Layout layout) {
  std::string text;
  try {
    text = doc.dump(layout == Layout::indented ? 2 : -1);
  } catch (const std::exception& e) {
    return Error{fmt::format("cannot serialise '{}' as JSON: {}", relative, e.what()), 0};
  }
  text.push_back('\n');
  return write_at(relative, text, false);
}

Status StagingBundle::write_at(std::string_view relative, std::string_view bytes,
                               bool allow_reserved) {
  return write_with(relative, allow_reserved,
                    [&](int fd) { return bundle_detail::write_all(fd, bytes); });
}

Status StagingBundle::write_with(std::string_view relative, bool allow_reserved,
                                 const std::function<int(int)>& fill) {
  const std::string rel(relative);
  auto target = open_target(root_fd_, root_, finalized_, rel, "write", allow_reserved);
  if (!target) return target.error();
  const int dir = target->dir.get();
  const std::string& base = target->base;

  const std::string tmp = ".jbench-tmp-" + bundle_detail::random_hex(8);
  UniqueFd fd(
      ::openat(dir, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!fd.valid()) return errno_error("cannot create '{}' in {}", rel, root_);

  const auto fail = [&](const char* step, int err) -> Status {
    fd.reset();
    ::unlinkat(dir, tmp.c_str(), 0);
    return sys_error(fmt::format("cannot write '{}' in {} ({})", rel, root_, step), err);
  };
  if (const int err = fill(fd.get()); err != 0) return fail("write", err);
  if (::fsync(fd.get()) != 0) return fail("fsync", errno);
  if (const int err = fd.close_checked(); err != 0) return fail("close", err);
  if (::renameat(dir, tmp.c_str(), dir, base.c_str()) != 0) {
    return fail("rename into place", errno);
  }
  return {};
}

Status StagingBundle::copy_file(std::string_view relative, const std::string& source) {
  UniqueFd in(::open(source.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!in.valid()) return errno_error("cannot open '{}' to copy it", source);
  struct stat st {};
  if (::fstat(in.get(), &st) != 0) return errno_error("cannot stat '{}'", source);
  if (!S_ISREG(st.st_mode)) return Error{fmt::format("'{}' is not a regular file", source), 0};
  return write_with(relative, false, [&](int out) {
    std::array<char, 1 << 16> buffer{};
    for (;;) {
      const ssize_t n = ::read(in.get(), buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return errno;
      if (n == 0) return 0;
      if (const int err = bundle_detail::write_all(out, std::string_view(buffer.data(), n));
          err != 0) {
        return err;
      }
    }
  });
}

Status StagingBundle::link_file(std::string_view relative, const std::string& source) {
  struct stat st {};
  if (::lstat(source.c_str(), &st) != 0) return errno_error("cannot stat '{}'", source);
  if (!S_ISREG(st.st_mode)) return Error{fmt::format("'{}' is not a regular file", source), 0};
  const std::string rel(relative);
  auto target = open_target(root_fd_, root_, finalized_, rel, "write", false);
  if (!target) return target.error();
  const int dir = target->dir.get();
  const std::string& base = target->base;
  // A temporary name first, as for every write, so that the final name appears whole or not at
  // all; linkat without AT_SYMLINK_FOLLOW never follows a symlink swapped in since the lstat.
  const std::string tmp = ".jbench-tmp-" + bundle_detail::random_hex(8);
  if (::linkat(AT_FDCWD, source.c_str(), dir, tmp.c_str(), 0) != 0) {
    const int err = errno;
    if (err == EXDEV || err == EPERM || err == EMLINK || err == ENOTSUP || err == EOPNOTSUPP) {
      return copy_file(relative, source);  // another file system, or one without hard links
    }
    return sys_error(fmt::format("cannot link '{}' as '{}' in {}", source, rel, root_), err);
  }
  if (::renameat(dir, tmp.c_str(), dir, base.c_str()) != 0) {
    const int err = errno;
    ::unlinkat(dir, tmp.c_str(), 0);
    return sys_error(fmt::format("cannot write '{}' in {} (rename into place)", rel, root_), err);
  }
  return {};
}

Status StagingBundle::copy_tree(std::string_view relative_dir, const std::string& source_dir,
                                TreeCopy how) {
  UniqueFd dir(::open(source_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW));
  if (!dir.valid()) return errno_error("cannot open '{}' to copy it", source_dir);
  auto entries = bundle_detail::walk_tree(dir.get(), source_dir);
  if (!entries) return entries.error();
  for (const auto& e : *entries) {
    if (e.kind == bundle_detail::TreeEntry::Kind::other) {
      return Error{fmt::format("'{}/{}' is a {}, not a file or a directory: not copied", source_dir,
                               e.relative, e.other_type),
                   0};
    }
    if (e.kind != bundle_detail::TreeEntry::Kind::regular) continue;
    const std::string target = fmt::format("{}/{}", relative_dir, e.relative);
    const std::string from = source_dir + "/" + e.relative;
    if (auto s = how == TreeCopy::link ? link_file(target, from) : copy_file(target, from); !s) {
      return s;
    }
  }
  return {};
}

Status StagingBundle::append_line(std::string_view relative, std::string_view line) {
  const std::string rel(relative);
  auto target = open_target(root_fd_, root_, finalized_, rel, "append to", false);
  if (!target) return target.error();
  const int dir = target->dir.get();
  const std::string& base = target->base;
  UniqueFd fd(
      ::openat(dir, base.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!fd.valid()) {
    return errno_error("cannot open '{}' in {} for appending", rel, root_);
  }
  std::string text;
  text.reserve(line.size() + 1);
  text.append(line);
  text.push_back('\n');
  if (const int err = bundle_detail::write_all(fd.get(), text); err != 0) {
    return sys_error(fmt::format("cannot append to '{}' in {}", rel, root_), err);
  }
  if (const int err = fd.close_checked(); err != 0) {
    return sys_error(fmt::format("cannot append to '{}' in {} (close)", rel, root_), err);
  }
  return {};
}

namespace {

// The staged tree: its files (SHA256SUMS aside) in byte order and its directories; refused when it
// holds anything else, or a path a bundle may not hold.
struct StagedTree {
  std::vector<std::string> files;
  std::vector<std::string> dirs;
};

Result<StagedTree> staged_tree(int root_fd, const std::string& root) {
  auto tree = bundle_detail::walk_tree(root_fd, root);
  if (!tree) return tree.error();
  StagedTree t;
  for (const auto& entry : *tree) {
    if (entry.kind == bundle_detail::TreeEntry::Kind::other) {
      return Error{fmt::format("refusing to finalize {}: '{}' is a {}; a bundle holds only "
                               "regular files and directories",
                               root, entry.relative, entry.other_type),
                   0};
    }
    if (const Status safe = check_bundle_path(entry.relative); !safe) {
      return Error{fmt::format("refusing to finalize {}: '{}': {}", root, entry.relative,
                               safe.error().message),
                   0};
    }
    if (entry.kind == bundle_detail::TreeEntry::Kind::directory) {
      t.dirs.push_back(entry.relative);
    } else if (entry.relative != kSha256SumsName) {
      t.files.push_back(entry.relative);
    }
  }
  // std::string orders by char_traits<char>::compare, which compares as unsigned char: byte order.
  std::sort(t.files.begin(), t.files.end());
  return t;
}

// SHA256SUMS's text: one line per file, in the order given.
Result<std::string> sums_text(int root_fd, const std::string& root,
                              const std::vector<std::string>& files) {
  std::string sums;
  for (const auto& rel : files) {
    auto fd = open_file_beneath(root_fd, rel, root);
    if (!fd) return fd.error();
    auto digest = fd_sha256(fd->get(), root + "/" + rel);
    if (!digest) return digest.error();
    sums += sha256sums_line(*digest, rel);
  }
  return sums;
}

// Directory entries are durable only once their directories are synced: the deepest first, the
// root last.
Status sync_dirs(int root_fd, const std::string& root, const std::vector<std::string>& dirs) {
  for (auto it = dirs.rbegin(); it != dirs.rend(); ++it) {
    auto dir = open_dir_beneath(root_fd, split_path(*it), false, root);
    if (!dir) return dir.error();
    if (::fsync(dir->get()) != 0) {
      return errno_error("cannot fsync directory '{}' in {}", *it, root);
    }
  }
  if (::fsync(root_fd) != 0) return errno_error("cannot fsync {}", root);
  return {};
}

// The staging directory renamed to its final name, never replacing one.
Status rename_into_place(int out_fd, const std::string& staging_name, const std::string& final_name,
                         const std::string& root, const std::string& final_path) {
  if (rename_noreplace(out_fd, staging_name.c_str(), out_fd, final_name.c_str()) == 0) return {};
  const int err = errno;
  if (err != EINVAL && err != ENOSYS) {
    return sys_error(fmt::format("cannot rename {} to {} without replacing", root, final_path),
                     err);
  }
  // No RENAME_NOREPLACE on this system or file system. rename(2) replaces an empty directory but
  // never a non-empty one, so claim the name with mkdir (fails if it exists) and rename over it.
  if (::mkdirat(out_fd, final_name.c_str(), 0755) != 0) {
    return errno_error("cannot claim {}", final_path);
  }
  if (::renameat(out_fd, staging_name.c_str(), out_fd, final_name.c_str()) != 0) {
    const int rename_err = errno;
    ::unlinkat(out_fd, final_name.c_str(), AT_REMOVEDIR);  // only if still empty
    return sys_error(fmt::format("cannot rename {} to {}", root, final_path), rename_err);
  }
  return {};
}

}  // namespace

Result<std::string> StagingBundle::finalize(Outcome outcome) {
  if (finalized_ || root_fd_ < 0) return Error{"the bundle is already finalized", 0};
  const std::string final_name = name_ + std::string(outcome_suffix(outcome));
  const std::string final_path = out_dir_ == "/" ? "/" + final_name : out_dir_ + "/" + final_name;
  if (auto s = check_no_final_form(out_fd_, out_dir_, name_); !s) {
    return Error{
        fmt::format("{}; the staging directory {} is left in place", s.error().message, root_),
        s.error().sys_errno};
  }
  auto tree = staged_tree(root_fd_, root_);
  if (!tree) return tree.error();
  auto sums = sums_text(root_fd_, root_, tree->files);
  if (!sums) return sums.error();
  const auto undo_sums = [&](const Error& error) -> Result<std::string> {
    ::unlinkat(root_fd_, kSha256SumsName, 0);
    return Error{fmt::format("{}; the staging directory {} is left in place", error.message, root_),
                 error.sys_errno};
  };
  if (auto s = write_at(kSha256SumsName, *sums, true); !s) return undo_sums(s.error());
  if (auto s = sync_dirs(root_fd_, root_, tree->dirs); !s) return undo_sums(s.error());
  if (auto s = rename_into_place(out_fd_, staging_name_, final_name, root_, final_path); !s) {
    return undo_sums(s.error());
  }
  finalized_ = true;
  root_ = final_path;
  if (::fsync(out_fd_) != 0) {
    return errno_error(
        "renamed the bundle to {}, but cannot fsync {} (the rename may not survive a "
        "crash)",
        final_path, out_dir_);
  }
  return final_path;
}

}  // namespace jbench
