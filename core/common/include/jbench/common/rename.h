// A rename that never replaces what it would land on: renameat2(RENAME_NOREPLACE) on Linux.
// Elsewhere (macOS, FreeBSD, illumos) it says ENOSYS, and the caller takes its own way, as it does
// on a Linux file system without the flag (EINVAL): a directory renamed over an empty one it made
// itself, a file linked to its new name.
#pragma once

namespace jbench {

// 0, or -1 with errno (EINVAL or ENOSYS: this system or file system cannot refuse to replace).
int rename_noreplace(int old_dir, const char* old_name, int new_dir, const char* new_name);

}  // namespace jbench
