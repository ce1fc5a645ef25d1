// Every bad matrix in tests/fixtures/bad-matrices fails with exactly its expected message and
// exit code 2, without a crash, a hang or output on stdout.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "jbench_binary.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

std::string catalogue_dir() { return source_dir() + "/tests/fixtures/bad-matrices"; }

std::vector<std::string> catalogue_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(catalogue_dir())) {
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class BadMatrix : public ::testing::TestWithParam<std::string> {};

TEST_P(BadMatrix, fails_with_its_expected_message_and_exit_2) {
  const std::string name = GetParam();
  const std::string expected = read_file(catalogue_dir() + "/" + name + ".expected");
  const auto r = run_jbench({"plan", name + ".yaml"}, catalogue_dir());
  ASSERT_FALSE(r.timed_out);
  ASSERT_FALSE(r.signaled) << "killed by signal " << r.signal;
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, expected);
}

INSTANTIATE_TEST_SUITE_P(Catalogue, BadMatrix, ::testing::ValuesIn(catalogue_names()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string n = param_info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

TEST(BadMatrixCatalogue, is_large_and_every_case_has_its_expectation) {
  const auto names = catalogue_names();
  EXPECT_GE(names.size(), 30u);
  for (const auto& name : names) {
    EXPECT_TRUE(fs::exists(catalogue_dir() + "/" + name + ".expected")) << name;
  }
  for (const auto& entry : fs::directory_iterator(catalogue_dir())) {
    if (entry.path().extension() != ".expected") continue;
    EXPECT_TRUE(fs::exists(catalogue_dir() + "/" + entry.path().stem().string() + ".yaml"))
        << entry.path();
  }
}

TEST(BadMatrixInput, a_file_over_the_size_cap_is_refused_before_reading) {
  TempDir dir;
  dir.write("huge.yaml", "# " + std::string(1024 * 1024, 'x') + "\n");
  const auto r = run_jbench({"plan", "huge.yaml"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "huge.yaml: error: the file is 1048579 bytes; matrix files are limited to 1048576 "
            "bytes\n");
}

TEST(BadMatrixInput, a_missing_file_and_a_directory_are_refused) {
  TempDir dir;
  fs::create_directory(dir.path() + "/sub.yaml");
  auto r = run_jbench({"plan", "absent.yaml"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "absent.yaml: error: no such file\n");
  r = run_jbench({"plan", "sub.yaml"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "sub.yaml: error: is a directory, not a matrix file\n");
}

TEST(BadMatrixInput, a_device_file_is_refused) {
  const auto r = run_jbench({"plan", "/dev/zero"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "/dev/zero: error: is not a regular file\n");
}

}  // namespace
}  // namespace jbench::test
