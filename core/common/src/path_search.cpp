#include "jbench/common/path_search.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace jbench {

std::string find_in_path(std::string_view tool, std::string_view path_env,
                         RelativePathEntries relative) {
  std::size_t start = 0;
  while (start <= path_env.size()) {
    const auto colon = path_env.find(':', start);
    const std::string_view entry =
        path_env.substr(start, colon == std::string_view::npos ? colon : colon - start);
    const bool absolute = !entry.empty() && entry.front() == '/';
    if (absolute || relative == RelativePathEntries::resolve) {
      const std::string dir = entry.empty() ? std::string(".") : std::string(entry);
      const std::string candidate = dir + "/" + std::string(tool);
      struct stat st {};
      if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
          ::access(candidate.c_str(), X_OK) == 0) {
        if (absolute) return candidate;
        char resolved[PATH_MAX];
        if (::realpath(candidate.c_str(), resolved) != nullptr) return resolved;
      }
    }
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return {};
}

std::string find_on_path(std::string_view tool) {
  const char* path = std::getenv("PATH");
  return find_in_path(tool, path ? path : "/usr/local/bin:/usr/bin:/bin",
                      RelativePathEntries::skip);
}

std::string self_executable() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

std::string beside_self_executable(std::string_view file) {
  const std::string me = self_executable();
  if (me.empty()) return std::string(file);
  return (std::filesystem::path(me).parent_path() / file).string();
}

}  // namespace jbench
