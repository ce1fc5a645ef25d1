// Internal: the probe's reads of the filesystem, each prefixed by ProbeOptions::root.
#pragma once

#include <string>

namespace jbench::doctor {

// Files are read with jbench/common/small_file.h.

// What is at `path`: `denied` when stat is refused it (EACCES), `missing` when it fails otherwise.
enum class PathKind { missing, denied, file, directory, other };
PathKind path_kind(const std::string& path);
// True when `path` is a directory holding at least one entry.
bool directory_has_entries(const std::string& path);

}  // namespace jbench::doctor
