#include "jbench/bundle/sha256sums.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "jbench/bundle/staging_bundle.h"
#include "run_process.h"
#include "temp_dir.h"
#include "test_files.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::write_bytes;

// A finished bundle with a few files, built once per test in `tmp`.
std::string make_bundle(const test::TempDir& tmp) {
  auto staged = StagingBundle::create(tmp.path() + "/out", "b");
  if (!staged) throw std::runtime_error(staged.error().message);
  auto& b = *staged;
  for (const auto& [path, text] :
       std::vector<std::pair<std::string, std::string>>{{"manifest.json", "{}\n"},
                                                        {"runs/r1/run.json", "{\"seed\": 1}\n"},
                                                        {"runs/r1/logs/w.log", "hello\n"},
                                                        {"validation.json", "[]\n"}}) {
    if (auto s = b.write_file(path, text); !s) throw std::runtime_error(s.error().message);
  }
  auto final_dir = b.finalize(Outcome::complete);
  if (!final_dir) throw std::runtime_error(final_dir.error().message);
  return *final_dir;
}

// A copy of the bundle to corrupt.
std::string copy_of(const test::TempDir& tmp, const std::string& bundle, const std::string& name) {
  const std::string copy = tmp.path() + "/" + name;
  test::copy_tree(bundle, copy);
  return copy;
}

std::vector<std::string> codes_and_paths(const std::vector<SumsProblem>& problems) {
  std::vector<std::string> out;
  for (const auto& p : problems) out.push_back(p.code + " " + p.path);
  return out;
}

int sha256sum_check(const std::string& dir) {
  return test::run_process({"/usr/bin/sha256sum", "--check", "--strict", "--quiet", "SHA256SUMS"},
                           test::in_dir(dir))
      .exit_code;
}

TEST(FileSha256, matches_known_digests_and_sha256sum) {
  test::TempDir tmp;
  EXPECT_EQ(*file_sha256(tmp.write("empty", "")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(*file_sha256(tmp.write("abc", "abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Several 64 KiB chunks and a partial one.
  std::string big;
  for (int i = 0; i < 300000; ++i) big += static_cast<char>(i * 7 % 251);
  const std::string path = tmp.write("big", big);
  auto r = test::run_process({"/usr/bin/sha256sum", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(*file_sha256(path), r.out.substr(0, 64));
}

TEST(FileSha256, a_missing_file_is_an_error_with_errno) {
  auto d = file_sha256("/nonexistent/file");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().sys_errno, ENOENT);
  EXPECT_NE(d.error().message.find("/nonexistent/file"), std::string::npos);
  EXPECT_NE(d.error().message.find("No such file"), std::string::npos) << d.error().message;
}

TEST(VerifySha256Sums, a_fresh_bundle_has_no_problems) {
  test::TempDir tmp;
  EXPECT_TRUE(verify_sha256sums(make_bundle(tmp)).empty());
}

TEST(VerifySha256Sums, finds_a_flipped_byte) {
  test::TempDir tmp;
  const auto copy = copy_of(tmp, make_bundle(tmp), "flipped");
  std::string text = read_file(copy + "/runs/r1/run.json");
  text[3] ^= 0x01;
  write_bytes(copy + "/runs/r1/run.json", text);
  const auto problems = verify_sha256sums(copy);
  EXPECT_EQ(codes_and_paths(problems), std::vector<std::string>{"sums.mismatch runs/r1/run.json"});
  EXPECT_NE(problems.at(0).detail.find(*file_sha256(copy + "/runs/r1/run.json")),
            std::string::npos);
  EXPECT_NE(sha256sum_check(copy), 0);  // sha256sum agrees
}

TEST(VerifySha256Sums, finds_a_deleted_file) {
  test::TempDir tmp;
  const auto copy = copy_of(tmp, make_bundle(tmp), "deleted");
  fs::remove(copy + "/runs/r1/logs/w.log");
  EXPECT_EQ(codes_and_paths(verify_sha256sums(copy)),
            std::vector<std::string>{"sums.file_missing runs/r1/logs/w.log"});
  EXPECT_NE(sha256sum_check(copy), 0);
}

TEST(VerifySha256Sums, finds_an_added_file) {
  test::TempDir tmp;
  const auto copy = copy_of(tmp, make_bundle(tmp), "added");
  write_bytes(copy + "/runs/r1/extra.txt", "smuggled in\n");
  EXPECT_EQ(codes_and_paths(verify_sha256sums(copy)),
            std::vector<std::string>{"sums.file_unlisted runs/r1/extra.txt"});
}

TEST(VerifySha256Sums, finds_malformed_lines_and_still_checks_the_rest) {
  test::TempDir tmp;
  const auto copy = copy_of(tmp, make_bundle(tmp), "malformed");
  std::string sums = read_file(copy + "/SHA256SUMS");
  // An uppercase digest (sha256sum would accept it, the contract does not), a single space,
  // and garbage.
  std::string upper = sums.substr(0, sums.find('\n') + 1);
  for (std::size_t i = 0; i < 64; ++i) upper[i] = static_cast<char>(std::toupper(upper[i]));
  sums = upper + sums.substr(sums.find('\n') + 1) + "nonsense\n" + std::string(64, 'a') +
         " single-space\n";
  write_bytes(copy + "/SHA256SUMS", sums);
  const auto problems = verify_sha256sums(copy);
  EXPECT_EQ(codes_and_paths(problems),
            (std::vector<std::string>{"sums.malformed SHA256SUMS", "sums.malformed SHA256SUMS",
                                      "sums.malformed SHA256SUMS",
                                      // the first line's file is no longer listed
                                      "sums.file_unlisted manifest.json"}));
  EXPECT_NE(problems.at(0).detail.find("line 1"), std::string::npos) << problems.at(0).detail;
  EXPECT_NE(problems.at(1).detail.find("line 5"), std::string::npos) << problems.at(1).detail;
}

TEST(VerifySha256Sums, a_missing_final_newline_is_malformed_but_the_entry_is_checked) {
  test::TempDir tmp;
  const auto copy = copy_of(tmp, make_bundle(tmp), "no-newline");
  std::string sums = read_file(copy + "/SHA256SUMS");
  sums.pop_back();
  write_bytes(copy + "/SHA256SUMS", sums);
  EXPECT_EQ(codes_and_paths(verify_sha256sums(copy)),
            std::vector<std::string>{"sums.malformed SHA256SUMS"});
}

TEST(VerifySha256Sums, reports_a_missing_manifest) {
  test::TempDir tmp;
  const auto copy = copy_of(tmp, make_bundle(tmp), "no-sums");
  fs::remove(copy + "/SHA256SUMS");
  EXPECT_EQ(codes_and_paths(verify_sha256sums(copy)),
            std::vector<std::string>{"sums.missing SHA256SUMS"});
  EXPECT_EQ(codes_and_paths(verify_sha256sums(tmp.path() + "/does-not-exist")),
            std::vector<std::string>{"sums.bundle_unreadable "});
}

TEST(VerifySha256Sums, never_reads_outside_the_bundle) {
  test::TempDir tmp;
  const auto copy = copy_of(tmp, make_bundle(tmp), "escape");
  const std::string outside = tmp.write("secret", "outside the bundle\n");
  const std::string digest = *file_sha256(outside);
  std::string sums = read_file(copy + "/SHA256SUMS");
  sums += digest + "  ../secret\n" + digest + "  " + outside + "\n";
  write_bytes(copy + "/SHA256SUMS", sums);
  // And a symlink inside the bundle pointing outside, listed with the right digest.
  fs::create_symlink(outside, copy + "/zz-link");
  write_bytes(copy + "/SHA256SUMS", sums + digest + "  zz-link\n");
  EXPECT_EQ(codes_and_paths(verify_sha256sums(copy)),
            (std::vector<std::string>{"sums.unsafe_path ../secret", "sums.unsafe_path " + outside,
                                      "sums.not_regular zz-link"}));
}

TEST(VerifySha256Sums, finds_duplicates_and_disorder) {
  test::TempDir tmp;
  const auto copy = copy_of(tmp, make_bundle(tmp), "order");
  const std::string sums = read_file(copy + "/SHA256SUMS");
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < sums.size();) {
    const auto end = sums.find('\n', start);
    lines.push_back(sums.substr(start, end - start + 1));
    start = end + 1;
  }
  ASSERT_EQ(lines.size(), 4u);
  // manifest.json, runs/r1/logs/w.log, runs/r1/run.json, validation.json -> swap the last two,
  // repeat the first.
  write_bytes(copy + "/SHA256SUMS", lines[0] + lines[1] + lines[3] + lines[2] + lines[0]);
  EXPECT_EQ(
      codes_and_paths(verify_sha256sums(copy)),
      (std::vector<std::string>{"sums.unsorted runs/r1/run.json", "sums.duplicate manifest.json"}));
  // sha256sum itself does not care about order: it is our contract that does.
  EXPECT_EQ(sha256sum_check(copy), 0);
}

}  // namespace
}  // namespace jbench
