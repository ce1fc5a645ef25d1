// extract_archive_safely on archives built to attack it. Each must be refused with exactly its
// code and entry name, with nothing written into the destination and nothing outside it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "archive_builder.h"
#include "jbench/archive/archive.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;
using archive::ExtractLimits;
using Kind = TarEntry::Kind;

TarEntry special(Kind kind, std::string name, std::string target = "") {
  TarEntry e;
  e.kind = kind;
  e.name = std::move(name);
  e.target = std::move(target);
  return e;
}

// A destination inside a temp root, so that "../" from the destination lands in the root where
// the test can look for it.
struct Sandbox {
  TempDir root;
  std::string dest = root.path() + "/dest";
  std::string tar = root.path() + "/in.tar.zst";
  Sandbox() { fs::create_directory(dest); }
  bool dest_empty() const { return fs::is_empty(dest); }
};

struct Refusal {
  std::string code;
  std::string entry;
};

// Extracts and returns the one finding; fails the test if there is not exactly one.
Refusal refuse(Sandbox& s, const ExtractLimits& limits = {}) {
  auto x = archive::extract_archive_safely(s.tar, s.dest, limits);
  if (!x) {
    ADD_FAILURE() << "error instead of a finding: " << x.error().message;
    return {};
  }
  EXPECT_EQ(x->findings.size(), 1u);
  EXPECT_TRUE(x->bundle_dir.empty());
  EXPECT_TRUE(s.dest_empty()) << "a refused archive wrote into the destination";
  if (x->findings.empty()) return {};
  return {x->findings[0].code, x->findings[0].entry};
}

TEST(ExtractSafely, a_clean_archive_is_extracted_under_its_one_directory) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("b"), dir_entry("b/d"), file_entry("b/d/x.json", "{}\n"),
                    file_entry("b/y", std::string(100'000, 'y'))});
  auto x = archive::extract_archive_safely(s.tar, s.dest);
  ASSERT_TRUE(x) << x.error().message;
  EXPECT_TRUE(x->findings.empty());
  EXPECT_EQ(x->bundle_dir, s.dest + "/b");
  std::ifstream in(s.dest + "/b/d/x.json");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, "{}\n");
  EXPECT_EQ(fs::file_size(s.dest + "/b/y"), 100'000u);
}

// Directories implied by file names are created too: tar tools often omit directory entries.
TEST(ExtractSafely, directories_implied_by_names_are_created) {
  Sandbox s;
  write_tar(s.tar, {file_entry("b/runs/r1/run.json", "1")}, Compression::gzip);
  auto x = archive::extract_archive_safely(s.tar, s.dest);
  ASSERT_TRUE(x) << x.error().message;
  EXPECT_TRUE(x->findings.empty());
  EXPECT_TRUE(fs::is_regular_file(s.dest + "/b/runs/r1/run.json"));
}

// "/<root>/abs-sentinel": an absolute name aimed at a file the test can see.
TEST(ExtractSafely, refuses_an_absolute_path) {
  Sandbox s;
  const std::string target = s.root.path() + "/abs-sentinel";
  write_tar(s.tar, {dir_entry("b"), file_entry("b/x", "1"), file_entry(target, "owned")});
  const Refusal r = refuse(s);
  EXPECT_EQ(r.code, "archive.absolute_path");
  EXPECT_EQ(r.entry, target);
  EXPECT_FALSE(fs::exists(target));
}

// "b/../../trav-sentinel" resolves from dest to <root>/trav-sentinel, outside dest.
TEST(ExtractSafely, refuses_dot_dot_traversal) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("b"), file_entry("b/../../trav-sentinel", "owned")});
  const Refusal r = refuse(s);
  EXPECT_EQ(r.code, "archive.path_traversal");
  EXPECT_EQ(r.entry, "b/../../trav-sentinel");
  EXPECT_FALSE(fs::exists(s.root.path() + "/trav-sentinel"));
}

// A symlink pointing out of dest, followed by a file written "through" it: the classic two-step
// escape. The symlink alone is refused; the file through it must never be written.
TEST(ExtractSafely, refuses_a_symlink_and_never_writes_through_it) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("b"), special(Kind::symlink, "b/out", "../.."),
                    file_entry("b/out/link-sentinel", "owned")});
  auto x = archive::extract_archive_safely(s.tar, s.dest);
  ASSERT_TRUE(x) << x.error().message;
  ASSERT_FALSE(x->findings.empty());
  EXPECT_EQ(x->findings[0].code, "archive.symlink");
  EXPECT_EQ(x->findings[0].entry, "b/out");
  EXPECT_TRUE(s.dest_empty());
  EXPECT_FALSE(fs::exists(s.root.path() + "/link-sentinel"));
}

// A hard link to a file outside the archive (here /etc/passwd) would let later writes reach it.
TEST(ExtractSafely, refuses_a_hard_link) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("b"), special(Kind::hardlink, "b/passwd", "/etc/passwd")});
  const Refusal r = refuse(s);
  EXPECT_EQ(r.code, "archive.hardlink");
  EXPECT_EQ(r.entry, "b/passwd");
}

// A character device (1,3: /dev/null's numbers); creating one would need root, which the tests
// may well have.
TEST(ExtractSafely, refuses_a_character_device) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("b"), special(Kind::char_device, "b/null")});
  const Refusal r = refuse(s);
  EXPECT_EQ(r.code, "archive.special_file");
  EXPECT_EQ(r.entry, "b/null");
}

TEST(ExtractSafely, refuses_a_fifo) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("b"), special(Kind::fifo, "b/pipe")});
  EXPECT_EQ(refuse(s).code, "archive.special_file");
}

// The header declares 4 KiB of zeros against a 1 KiB limit: the limit is checked on the header,
// before any data is read.
TEST(ExtractSafely, refuses_an_entry_over_the_size_limit) {
  Sandbox s;
  TarEntry big = file_entry("b/big", "");
  big.declared_size = 4096;
  write_tar(s.tar, {dir_entry("b"), file_entry("b/small", "1"), big});
  const Refusal r = refuse(s, ExtractLimits{.max_entry_bytes = 1024});
  EXPECT_EQ(r.code, "archive.too_large");
  EXPECT_EQ(r.entry, "b/big");
}

// Three files of 2500 bytes, each under the per-file limit, together over a 6000-byte total.
TEST(ExtractSafely, refuses_files_over_the_total_size_limit) {
  Sandbox s;
  const std::string data(2500, 'x');
  write_tar(s.tar, {file_entry("b/1", data), file_entry("b/2", data), file_entry("b/3", data)});
  const Refusal r = refuse(s, ExtractLimits{.max_entry_bytes = 4096, .max_total_bytes = 6000});
  EXPECT_EQ(r.code, "archive.too_large");
  EXPECT_EQ(r.entry, "b/3");
}

// Five entries against a limit of three: refused at the fourth, the rest is not read.
TEST(ExtractSafely, refuses_too_many_entries) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("b"), file_entry("b/1", "1"), file_entry("b/2", "2"),
                    file_entry("b/3", "3"), file_entry("b/4", "4")});
  const Refusal r = refuse(s, ExtractLimits{.max_entries = 3});
  EXPECT_EQ(r.code, "archive.too_many_entries");
  EXPECT_EQ(r.entry, "b/3");
}

// The same file twice, the second spelled with "./": which copy is the bundle's is unknown.
TEST(ExtractSafely, refuses_a_duplicate_entry) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("b"), file_entry("b/x", "first"), file_entry("b/./x", "second")});
  const Refusal r = refuse(s);
  EXPECT_EQ(r.code, "archive.duplicate_entry");
  EXPECT_EQ(r.entry, "b/./x");
}

// A file used as a directory by a later entry.
TEST(ExtractSafely, refuses_a_file_used_as_a_directory) {
  Sandbox s;
  write_tar(s.tar, {file_entry("b/x", "1"), file_entry("b/x/y", "2")});
  const Refusal r = refuse(s);
  EXPECT_EQ(r.code, "archive.path_conflict");
  EXPECT_EQ(r.entry, "b/x/y");
}

// Two top-level directories: which one is the bundle is unknown.
TEST(ExtractSafely, refuses_two_top_level_directories) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("a"), file_entry("a/x", "1"), dir_entry("b")});
  const Refusal r = refuse(s);
  EXPECT_EQ(r.code, "archive.not_one_directory");
  EXPECT_EQ(r.entry, "b/");  // libarchive reads directory names back with a slash
}

TEST(ExtractSafely, refuses_a_file_at_the_top_level) {
  Sandbox s;
  write_tar(s.tar, {file_entry("loose.json", "{}")});
  EXPECT_EQ(refuse(s).code, "archive.not_one_directory");
}

// "./" is what `tar -C bundle -c .` starts with: it names no file, so the archive is not one
// made by `jbench archive`.
TEST(ExtractSafely, refuses_a_name_that_names_no_file) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("./"), file_entry("b/x", "1")});
  const Refusal r = refuse(s);
  EXPECT_EQ(r.code, "archive.bad_name");
  EXPECT_EQ(r.entry, "./");
}

// Cut in the middle of a file's data: found while scanning, before anything is written.
TEST(ExtractSafely, refuses_a_truncated_plain_tar) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("b"), file_entry("b/x", std::string(20'000, 'x'))},
            Compression::none);
  fs::resize_file(s.tar, 512 * 3 + 4000);
  EXPECT_EQ(refuse(s).code, "archive.corrupt");
}

TEST(ExtractSafely, refuses_a_truncated_zstd_tar) {
  Sandbox s;
  std::string noise;
  for (int i = 0; i < 30'000; ++i) noise += static_cast<char>('a' + (i * 7919) % 26);
  write_tar(s.tar, {dir_entry("b"), file_entry("b/x", noise), file_entry("b/y", noise)});
  fs::resize_file(s.tar, fs::file_size(s.tar) / 2);
  EXPECT_EQ(refuse(s).code, "archive.corrupt");
}

// Every refused entry is listed, not only the first.
TEST(ExtractSafely, lists_every_refused_entry) {
  Sandbox s;
  write_tar(s.tar, {dir_entry("b"), special(Kind::symlink, "b/l", "x"),
                    special(Kind::char_device, "b/c"), file_entry("/abs", "1")});
  auto x = archive::extract_archive_safely(s.tar, s.dest);
  ASSERT_TRUE(x) << x.error().message;
  std::vector<std::string> codes;
  for (const auto& f : x->findings) codes.push_back(f.code);
  EXPECT_EQ(codes, (std::vector<std::string>{"archive.symlink", "archive.special_file",
                                             "archive.absolute_path"}));
  EXPECT_TRUE(s.dest_empty());
}

TEST(ExtractSafely, a_file_that_is_not_an_archive_is_an_error_not_a_finding) {
  Sandbox s;
  s.root.write("in.tar.zst", "{\"not\": \"a tar\"}\n");
  auto x = archive::extract_archive_safely(s.tar, s.dest);
  ASSERT_FALSE(x);
  EXPECT_NE(x.error().message.find("not a tar archive"), std::string::npos);
  EXPECT_TRUE(s.dest_empty());
}

}  // namespace
}  // namespace jbench::test
