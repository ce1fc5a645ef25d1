#include "bundle_sums.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "jbench/bundle/sha256sums.h"

namespace jbench::test {

void rewrite_sums(const std::string& bundle) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(bundle)) {
    const std::string rel = fs::relative(e.path(), bundle).generic_string();
    if (e.is_regular_file() && !e.is_symlink() && rel != kSha256SumsName) files.push_back(rel);
  }
  std::sort(files.begin(), files.end());  // byte order, as SHA256SUMS requires
  std::string text;
  for (const auto& f : files) {
    auto digest = file_sha256(bundle + "/" + f);
    if (!digest) throw std::runtime_error(digest.error().message);
    text += sha256sums_line(*digest, f);
  }
  std::ofstream(bundle + "/" + kSha256SumsName, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace jbench::test
