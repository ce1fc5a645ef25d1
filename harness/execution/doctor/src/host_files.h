// Internal: the probe's reads of the filesystem, each prefixed by ProbeOptions::root.
#pragma once

#include <string>

namespace jbench::doctor {

// Files are read with jbench/common/small_file.h.

enum class PathKind { missing, file, directory, other };
// What is at `path`; `error` is the errno of a failed stat (ENOENT for missing).
PathKind path_kind(const std::string& path, int* error = nullptr);
// True when `path` is a directory holding at least one entry.
bool directory_has_entries(const std::string& path);

}  // namespace jbench::doctor
