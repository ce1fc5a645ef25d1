#include "jbench/bundle/staging_bundle.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "jbench/bundle/sha256sums.h"
#include "run_process.h"
#include "temp_dir.h"
#include "test_files.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;
using test::exists_nofollow;
using test::list_tree;
using test::read_file;

StagingBundle make_staging(const std::string& out, const std::string& name) {
  auto staged = StagingBundle::create(out, name);
  // gtest reports an exception escaping a test as that test's failure.
  if (!staged) throw std::runtime_error(staged.error().message);
  return std::move(staged).value();
}

void expect_ok(const Status& s) { EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message); }

TEST(StagingBundle, creates_a_hidden_staging_directory_and_the_missing_parents) {
  test::TempDir tmp;
  const std::string out = tmp.path() + "/a/b";
  auto b = make_staging(out, "nightly");
  const std::string prefix = out + "/.staging-nightly-" + std::to_string(getpid()) + "-";
  EXPECT_EQ(b.root().rfind(prefix, 0), 0u) << b.root();
  EXPECT_TRUE(fs::is_directory(b.root()));
  EXPECT_FALSE(exists_nofollow(out + "/nightly"));
}

TEST(StagingBundle, round_trip_passes_sha256sum_check) {
  test::TempDir tmp;
  const std::string out = tmp.path() + "/out";
  auto b = make_staging(out, "r1");
  expect_ok(b.write_json("manifest.json", {{"jbench_version", "0.1.0"}, {"runs", {1, 2}}}));
  expect_ok(b.write_file("runs/run-0001/raw/syscalls/events.bin", std::string("\0\x01\xff", 3)));
  expect_ok(b.write_file("runs/run-0001/summary.json", "{}\n"));
  expect_ok(b.write_file("a name with spaces.txt", "spaces are fine\n"));
  expect_ok(b.write_file("empty", ""));
  expect_ok(b.append_line("runs/run-0001/logs/worker.log", "first"));
  expect_ok(b.append_line("runs/run-0001/logs/worker.log", "second"));

  const std::string staging = b.root();
  auto final_dir = b.finalize(Outcome::complete);
  ASSERT_TRUE(final_dir) << final_dir.error().message;
  EXPECT_EQ(*final_dir, out + "/r1");
  EXPECT_EQ(b.root(), out + "/r1");
  EXPECT_TRUE(b.finalized());
  EXPECT_FALSE(exists_nofollow(staging));

  EXPECT_EQ(read_file(*final_dir + "/manifest.json"),
            "{\n  \"jbench_version\": \"0.1.0\",\n  \"runs\": [\n    1,\n    2\n  ]\n}\n");
  EXPECT_EQ(read_file(*final_dir + "/runs/run-0001/logs/worker.log"), "first\nsecond\n");

  // Sorted by path in byte order, each "<digest>  <path>", SHA256SUMS not listing itself.
  const std::string sums = read_file(*final_dir + "/SHA256SUMS");
  EXPECT_EQ(sums,
            sha256sums_line(*file_sha256(*final_dir + "/a name with spaces.txt"),
                            "a name with spaces.txt") +
                sha256sums_line("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                                "empty") +
                sha256sums_line(*file_sha256(*final_dir + "/manifest.json"), "manifest.json") +
                sha256sums_line(*file_sha256(*final_dir + "/runs/run-0001/logs/worker.log"),
                                "runs/run-0001/logs/worker.log") +
                sha256sums_line(*file_sha256(*final_dir + "/runs/run-0001/raw/syscalls/events.bin"),
                                "runs/run-0001/raw/syscalls/events.bin") +
                sha256sums_line(*file_sha256(*final_dir + "/runs/run-0001/summary.json"),
                                "runs/run-0001/summary.json"));

  auto r = test::run_process({"/usr/bin/sha256sum", "--check", "--strict", "SHA256SUMS"},
                             test::in_dir(*final_dir));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("runs/run-0001/raw/syscalls/events.bin: OK"), std::string::npos) << r.out;
  EXPECT_TRUE(verify_sha256sums(*final_dir).empty());

  // No temporary files were left behind anywhere.
  for (const auto& entry : list_tree(*final_dir)) {
    EXPECT_EQ(entry.find(".jbench-tmp-"), std::string::npos) << entry;
  }
}

TEST(StagingBundle, outcome_names_the_final_directory) {
  test::TempDir tmp;
  EXPECT_EQ(outcome_suffix(Outcome::complete), "");
  EXPECT_EQ(outcome_suffix(Outcome::interrupted), ".interrupted");
  EXPECT_EQ(outcome_suffix(Outcome::invalid), ".invalid");
  for (const auto& [outcome, name] : {std::pair{Outcome::complete, std::string("c")},
                                      std::pair{Outcome::interrupted, std::string("i")},
                                      std::pair{Outcome::invalid, std::string("v")}}) {
    auto b = make_staging(tmp.path(), name);
    expect_ok(b.write_file("x", "x"));
    auto final_dir = b.finalize(outcome);
    ASSERT_TRUE(final_dir) << final_dir.error().message;
    EXPECT_EQ(*final_dir, tmp.path() + "/" + name + std::string(outcome_suffix(outcome)));
    EXPECT_TRUE(fs::is_regular_file(*final_dir + "/SHA256SUMS"));
    EXPECT_TRUE(verify_sha256sums(*final_dir).empty());
  }
}

TEST(StagingBundle, create_refuses_a_name_whose_bundle_exists_in_any_form) {
  test::TempDir tmp;
  for (const std::string suffix : {"", ".interrupted", ".invalid"}) {
    const std::string name = "b" + std::to_string(suffix.size());
    fs::create_directory(tmp.path() + "/" + name + suffix);
    auto staged = StagingBundle::create(tmp.path(), name);
    ASSERT_FALSE(staged) << suffix;
    EXPECT_NE(staged.error().message.find("already exists"), std::string::npos)
        << staged.error().message;
    EXPECT_EQ(staged.error().sys_errno, EEXIST);
  }
  // Nothing was staged for the refused names.
  for (const auto& entry : list_tree(tmp.path())) {
    EXPECT_EQ(entry.find(".staging-"), std::string::npos) << entry;
  }
}

TEST(StagingBundle, create_refuses_bad_bundle_names) {
  test::TempDir tmp;
  for (const std::string name : {"", ".", "..", "a/b", ".hidden", "new\nline", "back\\slash"}) {
    auto staged = StagingBundle::create(tmp.path(), name);
    EXPECT_FALSE(staged) << "accepted '" << name << "'";
  }
}

TEST(StagingBundle, finalize_never_overwrites_an_existing_bundle) {
  test::TempDir tmp;
  auto b = make_staging(tmp.path(), "r");
  expect_ok(b.write_file("data.txt", "new evidence\n"));
  // Another bundle of the same name appears between create() and finalize().
  fs::create_directory(tmp.path() + "/r");
  test::write_bytes(tmp.path() + "/r/data.txt", "old evidence\n");

  auto final_dir = b.finalize(Outcome::complete);
  ASSERT_FALSE(final_dir);
  EXPECT_NE(final_dir.error().message.find("already exists"), std::string::npos)
      << final_dir.error().message;
  EXPECT_EQ(read_file(tmp.path() + "/r/data.txt"), "old evidence\n");
  EXPECT_EQ(list_tree(tmp.path() + "/r"), std::vector<std::string>{"data.txt"});
  // The staging directory is intact, without a SHA256SUMS, and the bundle is still usable.
  EXPECT_FALSE(b.finalized());
  EXPECT_EQ(list_tree(b.root()), std::vector<std::string>{"data.txt"});
  EXPECT_EQ(read_file(b.root() + "/data.txt"), "new evidence\n");

  fs::rename(tmp.path() + "/r", tmp.path() + "/r-moved-away");
  auto retried = b.finalize(Outcome::complete);
  ASSERT_TRUE(retried) << retried.error().message;
  EXPECT_TRUE(verify_sha256sums(*retried).empty());
}

TEST(StagingBundle, an_invalid_form_of_the_name_also_blocks_finalize) {
  test::TempDir tmp;
  auto b = make_staging(tmp.path(), "r");
  fs::create_directory(tmp.path() + "/r.invalid");
  auto final_dir = b.finalize(Outcome::complete);
  ASSERT_FALSE(final_dir);
  EXPECT_FALSE(exists_nofollow(tmp.path() + "/r"));
  EXPECT_TRUE(fs::is_directory(b.root()));
}

TEST(StagingBundle, of_two_stagings_with_one_name_only_the_first_finalize_wins) {
  test::TempDir tmp;
  auto first = make_staging(tmp.path(), "same");
  auto second = make_staging(tmp.path(), "same");
  ASSERT_NE(first.root(), second.root());
  expect_ok(first.write_file("who", "first\n"));
  expect_ok(second.write_file("who", "second\n"));
  ASSERT_TRUE(first.finalize(Outcome::complete));
  auto lost = second.finalize(Outcome::complete);
  ASSERT_FALSE(lost);
  EXPECT_EQ(read_file(tmp.path() + "/same/who"), "first\n");
  EXPECT_EQ(read_file(second.root() + "/who"), "second\n");
  EXPECT_FALSE(exists_nofollow(second.root() + "/SHA256SUMS"));
}

TEST(StagingBundle, refuses_paths_that_leave_the_bundle_or_do_not_round_trip) {
  test::TempDir tmp;
  auto b = make_staging(tmp.path() + "/out", "r");
  const std::vector<std::string> bad = {"/etc/evil",
                                        "../evil",
                                        "a/../../evil",
                                        "a/./b",
                                        "a//b",
                                        "a/",
                                        "",
                                        "x\ny",
                                        "tab\there",
                                        "x\\y",
                                        "SHA256SUMS",
                                        "..",
                                        std::string("nul\0byte", 8)};
  for (const auto& path : bad) {
    const Status s = b.write_file(path, "x");
    EXPECT_FALSE(s.ok()) << "wrote '" << path << "'";
    const Status a = b.append_line(path, "x");
    EXPECT_FALSE(a.ok()) << "appended to '" << path << "'";
  }
  const Status j = b.write_json("../evil.json", nlohmann::json::object());
  EXPECT_FALSE(j.ok());
  EXPECT_TRUE(list_tree(b.root()).empty());
  EXPECT_EQ(list_tree(tmp.path()),
            (std::vector<std::string>{"out", "out/" + fs::path(b.root()).filename().string()}));
  // A SHA256SUMS deeper in the tree is an ordinary file.
  expect_ok(b.write_file("runs/SHA256SUMS", "not the manifest\n"));
}

TEST(StagingBundle, a_symlinked_directory_in_staging_is_not_followed) {
  test::TempDir tmp;
  auto b = make_staging(tmp.path() + "/out", "r");
  const std::string outside = tmp.path() + "/outside";
  fs::create_directory(outside);
  fs::create_directory_symlink(outside, b.root() + "/runs");
  const Status s = b.write_file("runs/x.json", "{}");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("runs"), std::string::npos) << s.error().message;
  EXPECT_FALSE(b.append_line("runs/log", "x").ok());
  EXPECT_TRUE(list_tree(outside).empty());
}

TEST(StagingBundle, finalize_refuses_a_symlink_planted_in_staging) {
  test::TempDir tmp;
  auto b = make_staging(tmp.path(), "r");
  expect_ok(b.write_file("runs/ok.json", "{}\n"));
  fs::create_symlink("/etc/hostname", b.root() + "/runs/planted");
  auto final_dir = b.finalize(Outcome::complete);
  ASSERT_FALSE(final_dir);
  EXPECT_NE(final_dir.error().message.find("runs/planted"), std::string::npos)
      << final_dir.error().message;
  EXPECT_NE(final_dir.error().message.find("symlink"), std::string::npos);
  EXPECT_FALSE(exists_nofollow(tmp.path() + "/r"));
  EXPECT_FALSE(exists_nofollow(b.root() + "/SHA256SUMS"));
  EXPECT_TRUE(exists_nofollow(b.root() + "/runs/planted"));
  // Not even as invalid: the refusal is about the tree, whatever the outcome.
  EXPECT_FALSE(b.finalize(Outcome::invalid));
}

TEST(StagingBundle, finalize_refuses_a_fifo_and_names_sha256sum_would_escape) {
  test::TempDir tmp;
  {
    auto b = make_staging(tmp.path(), "fifo");
    ASSERT_EQ(mkfifo((b.root() + "/pipe").c_str(), 0600), 0);
    auto final_dir = b.finalize(Outcome::invalid);
    ASSERT_FALSE(final_dir);
    EXPECT_NE(final_dir.error().message.find("fifo"), std::string::npos)
        << final_dir.error().message;
  }
  {
    auto b = make_staging(tmp.path(), "newline");
    test::write_bytes(b.root() + "/bad\nname", "written around the API\n");
    auto final_dir = b.finalize(Outcome::invalid);
    ASSERT_FALSE(final_dir);
    EXPECT_FALSE(exists_nofollow(tmp.path() + "/newline.invalid"));
  }
}

TEST(StagingBundle, write_file_replaces_a_file_whole) {
  test::TempDir tmp;
  auto b = make_staging(tmp.path(), "r");
  expect_ok(b.write_file("manifest.json", std::string(100000, 'a')));
  expect_ok(b.write_file("manifest.json", "short\n"));
  EXPECT_EQ(read_file(b.root() + "/manifest.json"), "short\n");
  EXPECT_EQ(list_tree(b.root()), std::vector<std::string>{"manifest.json"});
  // A directory in the way is an error, not a silent success.
  expect_ok(b.write_file("dir/file", "x"));
  const Status s = b.write_file("dir", "x");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(list_tree(b.root()), (std::vector<std::string>{"dir", "dir/file", "manifest.json"}));
}

TEST(StagingBundle, write_json_reports_invalid_utf8_instead_of_throwing) {
  test::TempDir tmp;
  auto b = make_staging(tmp.path(), "r");
  const Status s = b.write_json("bad.json", {{"name", std::string("\xff\xfe")}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("bad.json"), std::string::npos) << s.error().message;
  EXPECT_FALSE(exists_nofollow(b.root() + "/bad.json"));
}

TEST(StagingBundle, writes_after_finalize_are_refused) {
  test::TempDir tmp;
  auto b = make_staging(tmp.path(), "r");
  ASSERT_TRUE(b.finalize(Outcome::complete));
  EXPECT_FALSE(b.write_file("late.txt", "x").ok());
  EXPECT_FALSE(b.append_line("late.log", "x").ok());
  EXPECT_FALSE(b.finalize(Outcome::complete));
  EXPECT_FALSE(exists_nofollow(tmp.path() + "/r/late.txt"));
  EXPECT_TRUE(verify_sha256sums(tmp.path() + "/r").empty());
}

TEST(StagingBundle, a_moved_bundle_keeps_working) {
  test::TempDir tmp;
  auto a = make_staging(tmp.path(), "moved");
  StagingBundle b = std::move(a);
  expect_ok(b.write_file("x", "x"));
  auto final_dir = b.finalize(Outcome::complete);
  ASSERT_TRUE(final_dir) << final_dir.error().message;
  EXPECT_TRUE(verify_sha256sums(*final_dir).empty());
}

TEST(StagingBundle, an_abandoned_staging_directory_is_kept_as_evidence) {
  test::TempDir tmp;
  std::string root;
  {
    auto b = make_staging(tmp.path(), "crashed");
    expect_ok(b.write_file("partial.json", "{}\n"));
    root = b.root();
  }
  EXPECT_EQ(read_file(root + "/partial.json"), "{}\n");
  EXPECT_FALSE(exists_nofollow(tmp.path() + "/crashed"));
}

}  // namespace
}  // namespace jbench

namespace jbench {
namespace {

// Another finished bundle's files, as a merge takes them: trees copied or hard-linked, the link
// falling back to a copy across file systems, and nothing that is not a regular file taken.
TEST(StagingBundle, copies_and_links_trees_of_regular_files_and_refuses_anything_else) {
  test::TempDir tmp;
  const std::string src = tmp.path() + "/src";
  fs::create_directories(src + "/raw");
  std::ofstream(src + "/run.json") << "{}\n";
  std::ofstream(src + "/raw/events.jsonl") << std::string(200'000, 'e');
  StagingBundle b = make_staging(tmp.path() + "/out", "merged");
  expect_ok(b.copy_tree("runs/copied", src));
  expect_ok(b.copy_tree("runs/linked", src, StagingBundle::TreeCopy::link));
  struct stat original {
  }, linked{}, copied{};
  ASSERT_EQ(::stat((src + "/raw/events.jsonl").c_str(), &original), 0);
  ASSERT_EQ(::stat((b.root() + "/runs/linked/raw/events.jsonl").c_str(), &linked), 0);
  ASSERT_EQ(::stat((b.root() + "/runs/copied/raw/events.jsonl").c_str(), &copied), 0);
  EXPECT_EQ(linked.st_ino, original.st_ino);  // no byte copied
  EXPECT_NE(copied.st_ino, original.st_ino);
  EXPECT_EQ(read_file(b.root() + "/runs/copied/raw/events.jsonl"), std::string(200'000, 'e'));
  // From another file system a link is a copy.
  char shm[] = "/dev/shm/jbench-test-XXXXXX";
  if (fs::is_directory("/dev/shm") && ::mkdtemp(shm) != nullptr) {
    std::ofstream(std::string(shm) + "/f") << "on tmpfs\n";
    expect_ok(b.link_file("elsewhere/f", std::string(shm) + "/f"));
    EXPECT_EQ(read_file(b.root() + "/elsewhere/f"), "on tmpfs\n");
    fs::remove_all(shm);
  }
  // A symlink is never followed or taken, neither as a file nor inside a tree.
  fs::create_symlink("/etc/passwd", src + "/raw/link");
  EXPECT_FALSE(b.link_file("x/link", src + "/raw/link").ok());
  EXPECT_FALSE(b.copy_file("x/link", src + "/raw/link").ok());
  EXPECT_FALSE(b.copy_tree("runs/again", src, StagingBundle::TreeCopy::link).ok());
  EXPECT_FALSE(exists_nofollow(b.root() + "/x/link"));
  EXPECT_FALSE(b.link_file("SHA256SUMS", src + "/run.json").ok());
  auto final_dir = b.finalize(Outcome::complete);
  ASSERT_TRUE(final_dir) << final_dir.error().message;
  EXPECT_TRUE(verify_sha256sums(*final_dir).empty());
}

}  // namespace
}  // namespace jbench
