#include "archive_builder.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/sysmacros.h>

#include <cstdio>
#include <cstdlib>

namespace jbench::test {
namespace {

[[noreturn]] void die(struct archive* a, const char* what) {
  std::fprintf(stderr, "archive_builder: %s: %s\n", what, archive_error_string(a));
  std::abort();
}

void check(struct archive* a, int r, const char* what) {
  if (r < ARCHIVE_WARN) die(a, what);
}

}  // namespace

TarEntry file_entry(std::string name, std::string data) {
  TarEntry e;
  e.name = std::move(name);
  e.data = std::move(data);
  return e;
}

TarEntry dir_entry(std::string name) {
  TarEntry e;
  e.kind = TarEntry::Kind::directory;
  e.name = std::move(name);
  return e;
}

void write_tar(const std::string& path, const std::vector<TarEntry>& entries,
               Compression compression) {
  struct archive* a = archive_write_new();
  check(a, archive_write_set_format_pax_restricted(a), "format");
  if (compression == Compression::zstd) check(a, archive_write_add_filter_zstd(a), "zstd");
  if (compression == Compression::gzip) check(a, archive_write_add_filter_gzip(a), "gzip");
  check(a, archive_write_open_filename(a, path.c_str()), "open");
  for (const TarEntry& t : entries) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, t.name.c_str());
    archive_entry_set_perm(e, 0644);
    archive_entry_set_mtime(e, 1700000000, 0);
    std::int64_t size = 0;
    switch (t.kind) {
      case TarEntry::Kind::file:
        archive_entry_set_filetype(e, AE_IFREG);
        size = t.declared_size >= 0 ? t.declared_size : static_cast<std::int64_t>(t.data.size());
        break;
      case TarEntry::Kind::directory:
        archive_entry_set_filetype(e, AE_IFDIR);
        archive_entry_set_perm(e, 0755);
        break;
      case TarEntry::Kind::symlink:
        archive_entry_set_filetype(e, AE_IFLNK);
        archive_entry_set_symlink(e, t.target.c_str());
        break;
      case TarEntry::Kind::hardlink:
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_hardlink(e, t.target.c_str());
        break;
      case TarEntry::Kind::char_device:
        archive_entry_set_filetype(e, AE_IFCHR);
        archive_entry_set_rdev(e, makedev(1, 3));  // /dev/null's numbers
        break;
      case TarEntry::Kind::fifo:
        archive_entry_set_filetype(e, AE_IFIFO);
        break;
    }
    archive_entry_set_size(e, size);
    check(a, archive_write_header(a, e), "header");
    if (!t.data.empty()) archive_write_data(a, t.data.data(), t.data.size());
    check(a, archive_write_finish_entry(a), "finish entry");
    archive_entry_free(e);
  }
  check(a, archive_write_close(a), "close");
  archive_write_free(a);
}

std::vector<ReadEntry> list_tar(const std::string& path) {
  struct archive* a = archive_read_new();
  archive_read_support_format_tar(a);
  archive_read_support_filter_all(a);
  check(a, archive_read_open_filename(a, path.c_str(), 65536), "open for reading");
  std::vector<ReadEntry> out;
  archive_entry* e = nullptr;
  int r = ARCHIVE_OK;
  while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
    // A ustar header always has the name fields; a stored name is a non-empty one.
    const char* uname = archive_entry_uname(e);
    const char* gname = archive_entry_gname(e);
    out.push_back({archive_entry_pathname(e), archive_entry_uid(e), archive_entry_gid(e),
                   uname != nullptr && *uname != '\0', gname != nullptr && *gname != '\0',
                   archive_entry_filetype(e) == AE_IFDIR});
  }
  if (r != ARCHIVE_EOF) die(a, "read");
  archive_read_free(a);
  return out;
}

}  // namespace jbench::test
