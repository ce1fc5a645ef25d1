// The one reader of /proc's and /sys's small files: the whole text of a file stat calls empty,
// never more than asked, and a failure with its errno.
#include "jbench/common/small_file.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "temp_dir.h"

namespace jbench {
namespace {

TEST(SmallFile, reads_a_procfs_file_whose_size_is_zero_to_its_end) {
  const auto status = read_small_file("/proc/self/status");
  ASSERT_TRUE(status) << status.error().message;
  EXPECT_EQ(status->rfind("Name:", 0), 0u) << *status;
  EXPECT_NE(status->find("\nPid:"), std::string::npos) << *status;
}

TEST(SmallFile, reads_whole_files_and_never_more_than_asked) {
  test::TempDir dir;
  const std::string text(20'000, 'x');
  const std::string path = dir.write("long", text + "\nsecond line\n");
  const auto whole = read_small_file(path);
  ASSERT_TRUE(whole) << whole.error().message;
  EXPECT_EQ(*whole, text + "\nsecond line\n");
  const auto cut = read_small_file(path, 100);
  ASSERT_TRUE(cut);
  EXPECT_EQ(*cut, std::string(100, 'x'));
  const auto first = read_first_line(path);
  ASSERT_TRUE(first);
  EXPECT_EQ(*first, text);
  const auto unterminated = read_first_line(dir.write("one", "only"));
  ASSERT_TRUE(unterminated);
  EXPECT_EQ(*unterminated, "only");
}

TEST(SmallFile, a_file_that_cannot_be_read_is_a_host_error_with_its_errno) {
  test::TempDir dir;
  const std::string missing = dir.path() + "/missing";
  const auto absent = read_small_file(missing);
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error().sys_errno, ENOENT);
  EXPECT_EQ(absent.error().kind, ErrorKind::host);
  EXPECT_EQ(absent.error().message, "cannot open " + missing + ": No such file or directory");
  const auto directory = read_small_file(dir.path());
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error().sys_errno, EISDIR);
  EXPECT_EQ(directory.error().message.rfind("cannot read " + dir.path() + ": ", 0), 0u)
      << directory.error().message;
  EXPECT_FALSE(read_first_line(missing));
}

}  // namespace
}  // namespace jbench
