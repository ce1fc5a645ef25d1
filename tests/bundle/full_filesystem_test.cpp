// A write into a full file system: the error names the file and ENOSPC, and the bundle can still
// be finalized as invalid with what was written. Needs mount(2) (CAP_SYS_ADMIN): skipped without.
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "jbench/bundle/sha256sums.h"
#include "jbench/bundle/staging_bundle.h"
#include "run_process.h"
#include "temp_dir.h"
#include "test_files.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;

// A 1 MiB tmpfs mounted for the life of the object.
class SmallTmpfs {
 public:
  explicit SmallTmpfs(const std::string& where) : path_(where) {
    fs::create_directory(path_);
    if (::mount("jbench-test", path_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") !=
        0) {
      error_ = std::strerror(errno);
    } else {
      mounted_ = true;
    }
  }
  ~SmallTmpfs() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  }
  SmallTmpfs(const SmallTmpfs&) = delete;
  SmallTmpfs& operator=(const SmallTmpfs&) = delete;
  bool mounted() const { return mounted_; }
  const std::string& error() const { return error_; }

 private:
  std::string path_;
  bool mounted_ = false;
  std::string error_;
};

TEST(FullFilesystem, a_failed_write_is_reported_and_the_bundle_still_finalizes_as_invalid) {
  test::TempDir tmp;
  SmallTmpfs mnt(tmp.path() + "/mnt");
  if (!mnt.mounted()) {
    GTEST_SKIP() << "cannot mount a 1 MiB tmpfs (needs CAP_SYS_ADMIN): " << mnt.error();
  }
  auto staged = StagingBundle::create(tmp.path() + "/mnt/out", "full");
  ASSERT_TRUE(staged) << staged.error().message;
  auto& b = *staged;
  ASSERT_TRUE(b.write_json("manifest.json", {{"status", "running"}}).ok());
  ASSERT_TRUE(b.append_line("logs/run.log", "started").ok());

  const Status s = b.write_file("runs/r1/raw/trace.bin", std::string(2 << 20, 'x'));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().sys_errno, ENOSPC);
  EXPECT_NE(s.error().message.find("runs/r1/raw/trace.bin"), std::string::npos)
      << s.error().message;
  EXPECT_NE(s.error().message.find(std::strerror(ENOSPC)), std::string::npos) << s.error().message;
  // The partial temporary file was removed, so the space is back and nothing half-written stays.
  EXPECT_TRUE(test::list_tree(b.root() + "/runs/r1/raw").empty());

  // The caller keeps going: records the failure and finalizes as invalid.
  ASSERT_TRUE(b.append_line("logs/run.log", "write failed: " + s.error().message).ok());
  ASSERT_TRUE(b.write_json("manifest.json", {{"status", "invalid"}}).ok());
  auto final_dir = b.finalize(Outcome::invalid);
  ASSERT_TRUE(final_dir) << final_dir.error().message;
  EXPECT_EQ(*final_dir, tmp.path() + "/mnt/out/full.invalid");
  EXPECT_TRUE(verify_sha256sums(*final_dir).empty());
  auto r = test::run_process({"/usr/bin/sha256sum", "--check", "--strict", "SHA256SUMS"},
                             test::in_dir(*final_dir));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("logs/run.log: OK"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("manifest.json: OK"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace jbench
