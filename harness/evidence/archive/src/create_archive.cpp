// `create_archive`: the bundle walked with lstat (so nothing is followed), sorted, and written
// with only the metadata a copy needs. Same bundle files, same mtimes -> same archive bytes.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "jbench/archive/archive.h"
#include "jbench/common/rename.h"
#include "libarchive_util.h"

namespace jbench::archive {
namespace {

namespace fs = std::filesystem;

struct Item {
  std::string name;  // the entry name: "<top>" or "<top>/<relative path>"
  std::string path;  // where it is on disk
  struct stat st {};
};

// Every file and directory under the bundle, or an error naming the first thing that is neither.
Result<std::vector<Item>> collect(const fs::path& root, const std::string& top) {
  std::vector<Item> items;
  Item self{top, root.string(), {}};
  if (::lstat(self.path.c_str(), &self.st) != 0) {
    return sys_error(fmt::format("cannot read '{}'", self.path), errno);
  }
  items.push_back(self);
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    Item item{top + "/" + it->path().lexically_relative(root).string(), it->path().string(), {}};
    if (::lstat(item.path.c_str(), &item.st) != 0) {
      return sys_error(fmt::format("cannot read '{}'", item.path), errno);
    }
    if (!S_ISREG(item.st.st_mode) && !S_ISDIR(item.st.st_mode)) {
      return Error{fmt::format("cannot archive '{}': not a regular file or directory (a "
                               "bundle holds nothing else, and an archive of it must not)",
                               item.path),
                   0};
    }
    items.push_back(std::move(item));
  }
  if (ec) return sys_error(fmt::format("cannot list '{}'", root.string()), ec.value());
  std::sort(items.begin(), items.end(),
            [](const Item& a, const Item& b) { return a.name < b.name; });
  return items;
}

// Removes the temporary archive unless it was renamed into place.
struct TempFile {
  std::string path;
  bool keep = false;
  ~TempFile() {
    if (!keep && !path.empty()) ::unlink(path.c_str());
  }
};

// zstd through the linked library, else gzip without a timestamp; never an external program.
Result<std::pair<ArchiveWriter, std::string>> new_writer() {
  ArchiveWriter w(archive_write_new());
  if (!w) return Error{"cannot allocate a libarchive writer", ENOMEM};
  archive_write_set_format_pax_restricted(w.get());
  if (archive_write_add_filter_zstd(w.get()) == ARCHIVE_OK) {
    return std::make_pair(std::move(w), std::string("zstd"));
  }
  // A refused (or external-program) zstd filter leaves the writer in an unknown state.
  w.reset(archive_write_new());
  if (!w) return Error{"cannot allocate a libarchive writer", ENOMEM};
  archive_write_set_format_pax_restricted(w.get());
  if (archive_write_add_filter_gzip(w.get()) != ARCHIVE_OK ||
      archive_write_set_filter_option(w.get(), "gzip", "timestamp", nullptr) < ARCHIVE_WARN) {
    return Error{fmt::format("cannot compress with zstd or gzip: {}", archive_message(w.get())), 0};
  }
  return std::make_pair(std::move(w), std::string("gzip"));
}

Status write_item(struct archive* w, const Item& item, ArchiveInfo* info) {
  ArchiveEntry e(archive_entry_new());
  const bool dir = S_ISDIR(item.st.st_mode);
  archive_entry_set_pathname(e.get(), item.name.c_str());
  archive_entry_set_filetype(e.get(), dir ? AE_IFDIR : AE_IFREG);
  archive_entry_set_perm(e.get(), (dir || (item.st.st_mode & 0111)) ? 0755 : 0644);
  archive_entry_set_size(e.get(), dir ? 0 : item.st.st_size);
  archive_entry_set_mtime(e.get(), item.st.st_mtim.tv_sec, 0);
  archive_entry_set_uid(e.get(), 0);
  archive_entry_set_gid(e.get(), 0);
  if (archive_write_header(w, e.get()) != ARCHIVE_OK) {
    return Error{fmt::format("cannot write the header of '{}': {}", item.name, archive_message(w)),
                 archive_errno(w)};
  }
  ++info->entries;
  if (dir) return {};
  UniqueFd fd(::open(item.path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0) return sys_error(fmt::format("cannot open '{}'", item.path), errno);
  char buf[64 * 1024];
  off_t total = 0;
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return sys_error(fmt::format("cannot read '{}'", item.path), errno);
    if (n == 0) break;
    total += n;
    if (total > item.st.st_size) break;
    if (archive_write_data(w, buf, static_cast<std::size_t>(n)) != n) {
      return Error{fmt::format("cannot write '{}': {}", item.name, archive_message(w)),
                   archive_errno(w)};
    }
  }
  if (total != item.st.st_size) {
    return Error{fmt::format("'{}' changed size while it was being archived", item.path), 0};
  }
  info->data_bytes += static_cast<std::uint64_t>(total);
  return {};
}

// Moves tmp to out only if out does not exist, atomically where the filesystem allows.
Status publish(const std::string& tmp, const std::string& out) {
  if (rename_noreplace(AT_FDCWD, tmp.c_str(), AT_FDCWD, out.c_str()) == 0) return {};
  if (errno != EINVAL && errno != ENOSYS) {
    return sys_error(fmt::format("cannot rename the archive to '{}'", out), errno);
  }
  // No RENAME_NOREPLACE on this system or file system: link() also refuses an existing name.
  if (::link(tmp.c_str(), out.c_str()) != 0) {
    return sys_error(fmt::format("cannot create '{}'", out), errno);
  }
  ::unlink(tmp.c_str());
  return {};
}

bool is_within(const fs::path& inner, const fs::path& outer) {
  auto [o, i] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  return o == outer.end();
}

}  // namespace

Result<ArchiveInfo> create_archive(const std::string& bundle_dir, const std::string& out_file) {
  std::error_code ec;
  const fs::path root = fs::canonical(bundle_dir, ec);
  if (ec) return sys_error(fmt::format("cannot open bundle '{}'", bundle_dir), ec.value());
  if (!fs::is_directory(root)) {
    return Error{fmt::format("'{}' is not a directory", bundle_dir), ENOTDIR};
  }
  struct stat st {};
  if (::lstat(out_file.c_str(), &st) == 0) {
    return Error{fmt::format("'{}' already exists; an archive is never overwritten", out_file),
                 EEXIST};
  }
  fs::path parent = fs::path(out_file).parent_path();
  const fs::path out_dir = fs::canonical(parent.empty() ? fs::path(".") : parent, ec);
  if (ec) return sys_error(fmt::format("cannot open the directory of '{}'", out_file), ec.value());
  if (is_within(out_dir, root)) {
    return Error{fmt::format("'{}' is inside the bundle; the archive would change the "
                             "bundle it holds",
                             out_file),
                 EINVAL};
  }

  auto items = collect(root, root.filename().string());
  if (!items) return items.error();

  TempFile tmp{(out_dir / ("." + fs::path(out_file).filename().string() + ".tmp-XXXXXX")).string()};
  UniqueFd fd(::mkstemp(tmp.path.data()));
  if (fd.get() < 0) {
    const int err = errno;
    tmp.path.clear();
    return sys_error(fmt::format("cannot create a temporary file in '{}'", out_dir.string()), err);
  }
  ::fchmod(fd.get(), 0644);  // mkstemp makes 0600; an archive is meant to be handed on

  auto writer = new_writer();
  if (!writer) return writer.error();
  struct archive* w = writer.value().first.get();
  ArchiveInfo info;
  info.compression = writer.value().second;
  if (archive_write_open_fd(w, fd.get()) != ARCHIVE_OK) {
    return Error{fmt::format("cannot start the archive: {}", archive_message(w)), archive_errno(w)};
  }
  for (const Item& item : items.value()) {
    if (Status s = write_item(w, item, &info); !s) return s.error();
  }
  if (archive_write_close(w) != ARCHIVE_OK) {
    return Error{fmt::format("cannot finish the archive: {}", archive_message(w)),
                 archive_errno(w)};
  }
  if (::fsync(fd.get()) != 0) return sys_error("cannot flush the archive", errno);
  if (Status s = publish(tmp.path, out_file); !s) return s.error();
  tmp.keep = true;
  return info;
}

}  // namespace jbench::archive
