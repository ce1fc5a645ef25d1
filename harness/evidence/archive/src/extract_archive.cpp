// Extraction in two passes over the file: scan everything (writing nothing), then write only an
// archive that had no finding. The write pass re-applies the same rules and creates every path
// by walking down from dest_dir with O_NOFOLLOW, so a file swapped between the passes or a
// mistake in the rules still cannot write outside dest_dir.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "entry_rules.h"
#include "jbench/archive/archive.h"
#include "libarchive_util.h"

namespace jbench::archive {
namespace {

constexpr std::size_t kBlockBytes = 64 * 1024;

// libarchive's ARCHIVE_ERRNO_FILE_FORMAT (private in archive_private.h): EILSEQ on Linux. It is
// what "Unrecognized archive format" carries.
constexpr int kFormatErrno = EILSEQ;

ArchiveFinding corrupt(struct archive* a, const std::string& entry) {
  return ArchiveFinding{"archive.corrupt", entry,
                        fmt::format("the archive is damaged or truncated: {}", archive_message(a))};
}

// A reader positioned before the first header, or a finding when the compressed stream is
// already damaged where libarchive looked ahead (a small truncated .zst fails right here).
struct Opened {
  ArchiveReader reader;
  std::optional<ArchiveFinding> damaged;
};

Result<Opened> open_reader(const std::string& file) {
  ArchiveReader a(archive_read_new());
  if (!a) return Error{"cannot allocate a libarchive reader", ENOMEM};
  // Only what jbench writes (and plain tar): no other filter, since some of libarchive's
  // filters run an external program on their input.
  archive_read_support_format_tar(a.get());
  archive_read_support_filter_zstd(a.get());
  archive_read_support_filter_gzip(a.get());
  if (archive_read_open_filename(a.get(), file.c_str(), kBlockBytes) == ARCHIVE_OK) {
    return Opened{std::move(a), std::nullopt};
  }
  const int err = archive_errno(a.get());
  if (err == kFormatErrno) {
    return Error{fmt::format("'{}' is not a tar archive (plain, zstd or gzip): {}", file,
                             archive_message(a.get())),
                 err};
  }
  if (err > 0) {  // a system call failed: ENOENT, EACCES, EIO...
    return Error{fmt::format("cannot read '{}': {}", file, archive_message(a.get())), err};
  }
  auto damaged = corrupt(a.get(), "");
  return Opened{std::move(a), std::move(damaged)};
}

EntryHeader header_of(archive_entry* e) {
  EntryHeader h;
  const char* name = archive_entry_pathname(e);
  if (name == nullptr) name = archive_entry_pathname_utf8(e);
  h.name = name ? name : "";
  // A hard link is stored as a regular-file header with a link target: test the link first.
  if (archive_entry_hardlink(e) != nullptr) {
    h.kind = EntryHeader::Kind::hardlink;
  } else {
    switch (archive_entry_filetype(e)) {
      case AE_IFREG:
        h.kind = EntryHeader::Kind::regular;
        break;
      case AE_IFDIR:
        h.kind = EntryHeader::Kind::directory;
        break;
      case AE_IFLNK:
        h.kind = EntryHeader::Kind::symlink;
        break;
      default:
        h.kind = EntryHeader::Kind::special;
    }
  }
  h.size = archive_entry_size_is_set(e) ? archive_entry_size(e) : 0;
  return h;
}

// Reads an entry's data to the end; libarchive notices truncation and bad compressed data only
// when the bytes are read.
std::optional<ArchiveFinding> drain(struct archive* a, const std::string& entry) {
  const void* buf = nullptr;
  std::size_t size = 0;
  la_int64_t offset = 0;
  for (;;) {
    const int r = archive_read_data_block(a, &buf, &size, &offset);
    if (r == ARCHIVE_EOF) return std::nullopt;
    if (r != ARCHIVE_OK) return corrupt(a, entry);
  }
}

// Pass one. The error side: not an archive at all, or the file cannot be opened.
Result<std::vector<ArchiveFinding>> scan(const std::string& file, const ExtractLimits& limits,
                                         std::string* top) {
  auto opened = open_reader(file);
  if (!opened) return opened.error();
  if (opened->damaged) return std::vector<ArchiveFinding>{*opened->damaged};
  struct archive* a = opened.value().reader.get();
  EntryRules rules(limits);
  std::vector<ArchiveFinding> findings;
  for (;;) {
    archive_entry* e = nullptr;
    const int r = archive_read_next_header(a, &e);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK) {
      findings.push_back(corrupt(a, ""));
      return findings;
    }
    const EntryHeader h = header_of(e);
    CleanPath path;
    if (auto f = rules.check(h, &path)) {
      findings.push_back(*f);
      if (rules.must_stop()) return findings;
    }
    if (auto f = drain(a, h.name)) {
      findings.push_back(*f);
      return findings;
    }
  }
  if (auto f = rules.finish()) findings.push_back(*f);
  *top = rules.top_dir();
  return findings;
}

// The second line of defence, independent of EntryRules: a component that could leave the
// directory it is resolved in is never passed to a system call.
Status plain_component(const std::string& c) {
  if (c.empty() || c == "." || c == ".." || c.find('/') != std::string::npos) {
    return Error{fmt::format("refusing to create a path through '{}'", c), EINVAL};
  }
  return {};
}

// Opens (creating as needed) the first `count` components of `path` beneath `dest`, refusing to
// follow a symlink at any step.
Result<UniqueFd> open_dirs(int dest, const CleanPath& path, std::size_t count) {
  UniqueFd current(::dup(dest));
  if (current.get() < 0) return sys_error("dup", errno);
  for (std::size_t i = 0; i < count; ++i) {
    if (Status s = plain_component(path[i]); !s) return s.error();
    if (::mkdirat(current.get(), path[i].c_str(), 0755) != 0 && errno != EEXIST) {
      return sys_error(fmt::format("cannot create directory '{}'", path[i]), errno);
    }
    UniqueFd next(
        ::openat(current.get(), path[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (next.get() < 0) return sys_error(fmt::format("cannot open directory '{}'", path[i]), errno);
    current = std::move(next);
  }
  return current;
}

Status write_data(struct archive* a, int fd, const std::string& entry, std::int64_t size,
                  std::vector<ArchiveFinding>* findings) {
  const void* buf = nullptr;
  std::size_t n = 0;
  la_int64_t offset = 0;
  for (;;) {
    const int r = archive_read_data_block(a, &buf, &n, &offset);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK) {
      findings->push_back(corrupt(a, entry));
      return {};
    }
    const char* p = static_cast<const char*>(buf);
    while (n > 0) {
      const ssize_t w = ::pwrite(fd, p, n, offset);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return sys_error(fmt::format("cannot write '{}'", entry), errno);
      p += w;
      n -= static_cast<std::size_t>(w);
      offset += w;
    }
  }
  // A sparse entry may end in a hole: the file must still have its declared size.
  if (::ftruncate(fd, size) != 0) return sys_error(fmt::format("cannot size '{}'", entry), errno);
  return {};
}

Status write_file(struct archive* a, archive_entry* e, int parent, const std::string& leaf,
                  const EntryHeader& h, std::vector<ArchiveFinding>* findings) {
  if (Status s = plain_component(leaf); !s) return s;
  const mode_t mode = (archive_entry_perm(e) & 0111) ? 0755 : 0644;
  // O_EXCL: never replaces anything, and fails on a symlink as well.
  UniqueFd fd(
      ::openat(parent, leaf.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
  if (fd.get() < 0) return sys_error(fmt::format("cannot create '{}'", h.name), errno);
  if (Status s = write_data(a, fd.get(), h.name, h.size, findings); !s) return s;
  const struct timespec times[2] = {{archive_entry_mtime(e), 0}, {archive_entry_mtime(e), 0}};
  ::futimens(fd.get(), times);  // best effort: nothing checks the mtime
  return {};
}

// Pass two. Findings here mean the file changed since the scan; what was written so far stays
// inside dest_dir and the caller discards it.
Status write_all(const std::string& file, const std::string& dest_dir, const ExtractLimits& limits,
                 std::vector<ArchiveFinding>* findings) {
  auto opened = open_reader(file);
  if (!opened) return opened.error();
  if (opened->damaged) {
    findings->push_back(*opened->damaged);
    return {};
  }
  struct archive* a = opened.value().reader.get();
  UniqueFd dest(::open(dest_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dest.get() < 0) return sys_error(fmt::format("cannot open '{}'", dest_dir), errno);
  EntryRules rules(limits);
  for (;;) {
    archive_entry* e = nullptr;
    const int r = archive_read_next_header(a, &e);
    if (r == ARCHIVE_EOF) return {};
    if (r != ARCHIVE_OK) {
      findings->push_back(corrupt(a, ""));
      return {};
    }
    const EntryHeader h = header_of(e);
    CleanPath path;
    if (auto f = rules.check(h, &path)) {
      findings->push_back(*f);
      return {};
    }
    const bool is_dir = h.kind == EntryHeader::Kind::directory;
    auto parent = open_dirs(dest.get(), path, is_dir ? path.size() : path.size() - 1);
    if (!parent) return parent.error();
    if (is_dir) continue;
    if (Status s = write_file(a, e, parent.value().get(), path.back(), h, findings); !s) return s;
    if (!findings->empty()) return {};
  }
}

}  // namespace

Result<Extraction> extract_archive_safely(const std::string& archive_file,
                                          const std::string& dest_dir,
                                          const ExtractLimits& limits) {
  Extraction x;
  auto scanned = scan(archive_file, limits, &x.top_dir);
  if (!scanned) return scanned.error();
  x.findings = std::move(scanned.value());
  if (!x.findings.empty()) return x;
  if (Status s = write_all(archive_file, dest_dir, limits, &x.findings); !s) return s.error();
  if (x.findings.empty()) x.bundle_dir = dest_dir + "/" + x.top_dir;
  return x;
}

}  // namespace jbench::archive
