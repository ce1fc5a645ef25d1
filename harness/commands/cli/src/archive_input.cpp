#include "archive_input.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace jbench::cli {

ArchiveInput::ArchiveInput(const std::string& archive_file) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/jbench-archive-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    error_ = "cannot create a temporary directory to extract into (check TMPDIR)";
    return;
  }
  temp_dir_ = pattern;
  auto x = archive::extract_archive_safely(archive_file, temp_dir_);
  if (!x) {
    error_ = x.error().message;
  } else if (!x->findings.empty()) {
    findings_ = std::move(x->findings);
  } else {
    bundle_dir_ = x->bundle_dir;
  }
}

ArchiveInput::~ArchiveInput() {
  // remove_all does not follow symlinks, and extraction never makes any.
  std::error_code ec;
  if (!temp_dir_.empty()) std::filesystem::remove_all(temp_dir_, ec);
}

}  // namespace jbench::cli
