#include "jbench/common/rename.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2 (glibc >= 2.28, with _GNU_SOURCE)

#include <cerrno>

#include "jbench/common/platform_choice.h"

namespace jbench {

int rename_noreplace(int old_dir, const char* old_name, int new_dir, const char* new_name) {
#if JBENCH_PLATFORM_LINUX
  return ::renameat2(old_dir, old_name, new_dir, new_name, RENAME_NOREPLACE);
#else
  (void)old_dir, (void)old_name, (void)new_dir, (void)new_name;
  errno = ENOSYS;
  return -1;
#endif
}

}  // namespace jbench
