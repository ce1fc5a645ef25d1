// Builds tar archives entry by entry for tests, including ones no honest writer would make:
// absolute names, '..', links, devices, sizes that lie. Uses libarchive's writer, so the bytes
// are what a real tar tool could produce.
//
//   write_tar(dir + "/evil.tar.zst", {dir_entry("b"), file_entry("b/../../x", "boom")});
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jbench::test {

struct TarEntry {
  enum class Kind { file, directory, symlink, hardlink, char_device, fifo } kind = Kind::file;
  std::string name;                 // written exactly as given
  std::string data;                 // file content
  std::string target;               // symlink or hard link target
  std::int64_t declared_size = -1;  // >= 0: the header's size; the writer pads with zeros
};

TarEntry file_entry(std::string name, std::string data);
TarEntry dir_entry(std::string name);

enum class Compression { none, zstd, gzip };

// Aborts the test program on a libarchive error: a fixture that cannot be built is a bug here.
void write_tar(const std::string& path, const std::vector<TarEntry>& entries,
               Compression compression = Compression::zstd);

// The names in an archive, in order, with uid, gid and whether a (non-empty) user or group name
// was stored.
struct ReadEntry {
  std::string name;
  std::int64_t uid = -1, gid = -1;
  bool has_uname = false, has_gname = false;
  bool is_dir = false;
};
std::vector<ReadEntry> list_tar(const std::string& path);

}  // namespace jbench::test
