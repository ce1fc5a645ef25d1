#include "validate_archive.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "jbench/archive/archive.h"

namespace jbench::cli {
namespace {

// A directory only this user can read (mkdtemp makes it 0700), removed with its contents when
// the object dies. remove_all does not follow symlinks, and extraction never makes any.
class PrivateTempDir {
 public:
  PrivateTempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/jbench-validate-XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~PrivateTempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  PrivateTempDir(const PrivateTempDir&) = delete;
  PrivateTempDir& operator=(const PrivateTempDir&) = delete;
  const std::string& path() const { return path_; }  // empty: mkdtemp failed

 private:
  std::string path_;
};

ValidationReport unreadable(const std::string& file, std::string message) {
  ValidationReport r;
  r.bundle = file;
  r.unreadable = true;
  r.findings.push_back(Finding{"bundle.unreadable", "", "", std::move(message)});
  return r;
}

}  // namespace

ValidationReport validate_archive(const std::string& archive_file) {
  PrivateTempDir dir;
  if (dir.path().empty()) {
    return unreadable(archive_file,
                      "cannot create a temporary directory to extract into (check "
                      "TMPDIR)");
  }
  auto x = archive::extract_archive_safely(archive_file, dir.path());
  if (!x) return unreadable(archive_file, x.error().message);
  ValidationReport report;
  if (!x->findings.empty()) {
    // Refused: nothing was extracted, so there is no bundle to validate.
    report.bundle = archive_file;
    for (const auto& f : x->findings) report.findings.push_back({f.code, f.entry, "", f.message});
    return report;
  }
  report = validate_bundle(x->bundle_dir);
  report.bundle = archive_file;
  return report;
}

}  // namespace jbench::cli
