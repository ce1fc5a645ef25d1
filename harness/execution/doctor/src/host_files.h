// Internal: the probe's reads of the filesystem, each prefixed by ProbeOptions::root.
#pragma once

#include <optional>
#include <string>

namespace jbench::doctor {

struct FileRead {
  std::optional<std::string> text;  // nullopt: could not be read
  int error = 0;                    // errno when it could not
  std::string why;                  // "cannot open <path>: <strerror>"
};

// At most 64 KiB of a small file (procfs and sysfs report size 0, so read to end of file).
FileRead read_small_file(const std::string& path);

enum class PathKind { missing, file, directory, other };
// What is at `path`; `error` is the errno of a failed stat (ENOENT for missing).
PathKind path_kind(const std::string& path, int* error = nullptr);
// True when `path` is a directory holding at least one entry.
bool directory_has_entries(const std::string& path);

}  // namespace jbench::doctor
