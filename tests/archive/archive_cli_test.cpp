// `jbench archive` and `jbench validate ARCHIVE`, running the real executable.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "archive_builder.h"
#include "archive_test_support.h"
#include "jbench/archive/archive.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

const std::string kMixedSummary = "runs/w1.persistent.mixed.tiny.baseline.r1/summary.json";

nlohmann::json report_of(const ProcessResult& r) {
  return nlohmann::json::parse(r.out, nullptr, false);
}

std::set<std::string> codes_of(const nlohmann::json& report) {
  std::set<std::string> codes;
  if (report.is_object()) {
    for (const auto& f : report["findings"]) codes.insert(f.value("code", ""));
  }
  return codes;
}

TEST(ArchiveCli, an_archive_of_the_valid_bundle_validates) {
  TempDir dir;
  const std::string out = dir.path() + "/valid.tar.zst";
  const auto made = jbench({"archive", valid_bundle(), "-o", out});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  EXPECT_EQ(made.out, out + "\n");
  fs::create_directory(dir.path() + "/tmp");
  const auto r = jbench({"validate", out, "--json"}, dir.path() + "/tmp");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto report = report_of(r);
  ASSERT_TRUE(report.is_object()) << r.out;
  EXPECT_EQ(report["valid"], true);
  EXPECT_EQ(report["bundle"], out);
  EXPECT_TRUE(fs::is_empty(dir.path() + "/tmp")) << "the extracted copy was not removed";
}

// The case: archive, validate the archive, change one byte of a copy, archive the copy,
// and the archive no longer validates — for the checksum and for the number that changed.
TEST(ArchiveCli, a_flipped_byte_in_an_archived_copy_is_a_sums_mismatch) {
  TempDir dir;
  const std::string first = dir.path() + "/first.tar.zst";
  ASSERT_EQ(jbench({"archive", valid_bundle(), "-o", first}).exit_code, 0);
  ASSERT_EQ(jbench({"validate", first}).exit_code, 0);

  fs::create_directory(dir.path() + "/copy");
  auto x = archive::extract_archive_safely(first, dir.path() + "/copy");
  ASSERT_TRUE(x && x->findings.empty());
  const std::string file = x->bundle_dir + "/" + kMixedSummary;
  std::string text;
  {
    std::ifstream in(file, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto digit = text.find_first_of("123456789", text.find("\"reads\""));
  ASSERT_NE(digit, std::string::npos);
  text[digit] = text[digit] == '9' ? '8' : static_cast<char>(text[digit] + 1);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;

  const std::string second = dir.path() + "/second.tar.zst";
  const auto refused = jbench({"archive", x->bundle_dir, "-o", second});
  EXPECT_EQ(refused.exit_code, 1) << refused.err;
  EXPECT_FALSE(fs::exists(second)) << "an invalid bundle was archived without --allow-invalid";
  const auto made = jbench({"archive", x->bundle_dir, "-o", second, "--allow-invalid"});
  ASSERT_EQ(made.exit_code, 0) << made.err;

  const auto r = jbench({"validate", second, "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto report = report_of(r);
  bool found = false;
  for (const auto& f : report["findings"]) {
    found = found || (f["code"] == "sums.mismatch" && f["file"] == kMixedSummary);
  }
  EXPECT_TRUE(found) << r.out;
}

// The traversal entry aims at <tmp>/cli-sentinel, seen from the private extraction directory
// <tmp>/jbench-validate-XXXXXX: refused as a finding (exit 1), nothing written, nothing left.
TEST(ArchiveCli, a_malicious_archive_is_invalid_and_leaves_nothing_behind) {
  TempDir dir;
  const std::string tmp = dir.path() + "/tmp";
  fs::create_directory(tmp);
  const std::string evil = dir.path() + "/evil.tar.zst";
  write_tar(evil, {dir_entry("b"), file_entry("b/../../cli-sentinel", "owned")});
  const auto r = jbench({"validate", evil, "--json"}, tmp);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto report = report_of(r);
  EXPECT_EQ(codes_of(report), std::set<std::string>{"archive.path_traversal"}) << r.out;
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["findings"][0]["file"], "b/../../cli-sentinel");
  EXPECT_FALSE(fs::exists(tmp + "/cli-sentinel"));
  EXPECT_FALSE(fs::exists(dir.path() + "/cli-sentinel"));
  EXPECT_TRUE(fs::is_empty(tmp)) << "the private extraction directory was not removed";
}

TEST(ArchiveCli, a_file_that_is_not_an_archive_is_exit_2) {
  TempDir dir;
  const std::string file = dir.write("notes.txt", "not an archive\n");
  const auto r = jbench({"validate", file, "--json"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("not a tar archive"), std::string::npos) << r.err;
  EXPECT_EQ(report_of(r)["unreadable"], true);
}

TEST(ArchiveCli, an_existing_output_is_never_overwritten) {
  TempDir dir;
  const std::string out = dir.write("taken.tar.zst", "precious");
  const auto r = jbench({"archive", valid_bundle(), "-o", out});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("already exists"), std::string::npos) << r.err;
  EXPECT_EQ(fs::file_size(out), 8u);
}

TEST(ArchiveCli, a_missing_bundle_is_exit_2) {
  TempDir dir;
  const auto r = jbench({"archive", dir.path() + "/nothing", "-o", dir.path() + "/x.tar.zst"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(fs::exists(dir.path() + "/x.tar.zst"));
}

TEST(ArchiveCli, archive_without_an_output_is_bad_usage) {
  EXPECT_EQ(jbench({"archive", valid_bundle()}).exit_code, 2);
}

}  // namespace
}  // namespace jbench::test
