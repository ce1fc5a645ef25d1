#include "build_paths.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void cannot(const std::string& why) {
  std::fprintf(stderr, "test paths: %s\n", why.c_str());
  std::abort();
}

std::string find_build_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) cannot("cannot read /proc/self/exe: " + ec.message());
  // <build>/bin/<test> (CMAKE_RUNTIME_OUTPUT_DIRECTORY); a helper may sit one folder deeper.
  for (fs::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path();
       dir = dir.parent_path()) {
    if (fs::is_regular_file(dir / "CMakeCache.txt", ec)) return dir.string();
  }
  cannot(exe.string() + " is not inside a CMake build tree (no CMakeCache.txt above it)");
}

std::string find_source_dir(const std::string& build) {
  std::ifstream cache(build + "/CMakeCache.txt");
  const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
  for (std::string line; std::getline(cache, line);) {
    if (line.rfind(key, 0) == 0) return line.substr(key.size());
  }
  cannot(build + "/CMakeCache.txt does not name its source directory (" + key + ")");
}

}  // namespace

std::string build_dir() {
  static const std::string dir = find_build_dir();
  return dir;
}

std::string source_dir() {
  static const std::string dir = find_source_dir(build_dir());
  return dir;
}

std::string build_path(std::string_view relative) {
  return relative.empty() ? build_dir() : build_dir() + "/" + std::string(relative);
}

std::string source_path(std::string_view relative) {
  return relative.empty() ? source_dir() : source_dir() + "/" + std::string(relative);
}

}  // namespace jbench::test
