// create_archive on the checked-in valid bundle: what is in the archive, and what is refused.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "archive_builder.h"
#include "archive_test_support.h"
#include "jbench/archive/archive.h"
#include "temp_dir.h"

namespace jbench::test {

void copy_valid_bundle(const std::string& dest) {
  const auto r = run_process({"/bin/cp", "-a", valid_bundle(), dest}, {});
  if (r.signaled || r.exit_code != 0) {
    std::fprintf(stderr, "cp -a failed (%d): %s\n", r.exit_code, r.err.c_str());
    std::abort();
  }
}

ProcessResult jbench(const std::vector<std::string>& args, const std::string& tmpdir) {
  std::vector<std::string> argv{JBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions options;
  options.timeout = std::chrono::seconds(20);
  if (!tmpdir.empty()) options.env.emplace_back("TMPDIR", tmpdir);
  return run_process(argv, options);
}

namespace {

namespace fs = std::filesystem;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

TEST(CreateArchive, holds_the_bundle_under_its_name_sorted_with_no_owner_names) {
  TempDir dir;
  const std::string out = dir.path() + "/v.tar.zst";
  auto made = archive::create_archive(valid_bundle(), out);
  ASSERT_TRUE(made) << made.error().message;
  EXPECT_EQ(made->compression, "zstd");
  const auto entries = list_tar(out);
  ASSERT_EQ(entries.size(), made->entries);
  EXPECT_EQ(entries.front().name, "valid/");
  std::size_t files = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    EXPECT_EQ(e.name.rfind("valid/", 0), 0u) << e.name;
    EXPECT_EQ(e.uid, 0);
    EXPECT_EQ(e.gid, 0);
    EXPECT_FALSE(e.has_uname) << e.name;
    EXPECT_FALSE(e.has_gname) << e.name;
    if (i > 0) {
      // Directory names come back with a trailing '/': compare without it.
      auto bare = [](std::string s) { return s.back() == '/' ? s.substr(0, s.size() - 1) : s; };
      EXPECT_LT(bare(entries[i - 1].name), bare(e.name));
    }
    files += e.is_dir ? 0 : 1;
  }
  std::size_t on_disk = 0;
  for (const auto& p : fs::recursive_directory_iterator(valid_bundle())) {
    on_disk += p.is_regular_file() ? 1 : 0;
  }
  EXPECT_EQ(files, on_disk);
}

// Same files, same mtimes: the same bytes. A copy made with `cp -a` keeps mtimes.
TEST(CreateArchive, is_byte_identical_for_the_same_bundle) {
  TempDir dir;
  copy_valid_bundle(dir.path() + "/valid");
  ASSERT_TRUE(archive::create_archive(valid_bundle(), dir.path() + "/1.tar.zst"));
  ASSERT_TRUE(archive::create_archive(dir.path() + "/valid", dir.path() + "/2.tar.zst"));
  EXPECT_EQ(read_all(dir.path() + "/1.tar.zst"), read_all(dir.path() + "/2.tar.zst"));
}

TEST(CreateArchive, never_overwrites_an_existing_file) {
  TempDir dir;
  const std::string out = dir.write("v.tar.zst", "precious");
  auto made = archive::create_archive(valid_bundle(), out);
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error().sys_errno, EEXIST);
  EXPECT_EQ(read_all(out), "precious");
}

// A symlink in the bundle could point anywhere; the archive would carry it to every copy.
TEST(CreateArchive, refuses_a_bundle_holding_a_symlink_and_leaves_no_file) {
  TempDir dir;
  const std::string bundle = dir.path() + "/b";
  copy_valid_bundle(bundle);
  ASSERT_EQ(::symlink("/etc/passwd", (bundle + "/logs/link").c_str()), 0);
  fs::create_directory(dir.path() + "/out");
  auto made = archive::create_archive(bundle, dir.path() + "/out/b.tar.zst");
  ASSERT_FALSE(made);
  EXPECT_NE(made.error().message.find("logs/link"), std::string::npos) << made.error().message;
  EXPECT_TRUE(fs::is_empty(dir.path() + "/out")) << "the temporary file was left behind";
}

TEST(CreateArchive, refuses_to_write_into_the_bundle_it_archives) {
  TempDir dir;
  const std::string bundle = dir.path() + "/b";
  copy_valid_bundle(bundle);
  auto made = archive::create_archive(bundle, bundle + "/logs/self.tar.zst");
  ASSERT_FALSE(made);
  EXPECT_FALSE(fs::exists(bundle + "/logs/self.tar.zst"));
}

// Round trip through the safe extractor: every file comes back with the same bytes.
TEST(CreateArchive, extracts_back_to_the_same_files) {
  TempDir dir;
  const std::string out = dir.path() + "/v.tar.zst";
  ASSERT_TRUE(archive::create_archive(valid_bundle(), out));
  fs::create_directory(dir.path() + "/x");
  auto x = archive::extract_archive_safely(out, dir.path() + "/x");
  ASSERT_TRUE(x) << x.error().message;
  ASSERT_TRUE(x->findings.empty()) << x->findings[0].code;
  std::size_t compared = 0;
  for (const auto& p : fs::recursive_directory_iterator(valid_bundle())) {
    if (!p.is_regular_file()) continue;
    const auto rel = fs::relative(p.path(), valid_bundle());
    EXPECT_EQ(read_all(p.path()), read_all(x->bundle_dir + "/" + rel.string())) << rel;
    ++compared;
  }
  EXPECT_GT(compared, 10u);
}

}  // namespace
}  // namespace jbench::test
