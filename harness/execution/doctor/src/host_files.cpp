#include "host_files.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cerrno>

namespace jbench::doctor {

PathKind path_kind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errno == EACCES ? PathKind::denied : PathKind::missing;
  if (S_ISDIR(st.st_mode)) return PathKind::directory;
  if (S_ISREG(st.st_mode)) return PathKind::file;
  return PathKind::other;
}

bool directory_has_entries(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return false;
  bool any = false;
  while (const dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) {
      any = true;
      break;
    }
  }
  ::closedir(dir);
  return any;
}

}  // namespace jbench::doctor
