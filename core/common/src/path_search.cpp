#include "jbench/common/path_search.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

namespace jbench {

std::string find_on_path(std::string_view tool) {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const std::string dir(dirs.substr(0, colon));
    dirs.remove_prefix(colon == std::string_view::npos ? dirs.size() : colon + 1);
    if (dir.empty() || dir.front() != '/') continue;  // relative PATH entries are not trusted
    const std::string candidate = dir + "/" + std::string(tool);
    struct stat st {};
    if (::access(candidate.c_str(), X_OK) == 0 && ::stat(candidate.c_str(), &st) == 0 &&
        !S_ISDIR(st.st_mode)) {
      return candidate;
    }
  }
  return {};
}

}  // namespace jbench
