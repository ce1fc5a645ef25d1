// A raw file written compressed (CompressedFile) reads back, through the one line reader every
// reader of raw files uses, as exactly the text written; a frame that was cut, altered or
// extended fails the reading after the lines that could be read, and the event checker refuses
// such a file.
#include "jbench/events/compressed_file.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "jbench/events/event_file.h"
#include "jbench/events/line_reader.h"
#include "temp_dir.h"

namespace jbench {
namespace {

using events::compress_file;
using events::CompressedFile;
using events::for_each_line;
using events::kCompressedSuffix;
using events::keep_compressed;
using events::LineRead;

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Writes `lines` compressed to `path`; fails the test on any error.
void write_compressed(const std::string& path, const std::vector<std::string>& lines) {
  CompressedFile f;
  ASSERT_TRUE(f.open(path).ok());
  for (const auto& l : lines) {
    ASSERT_TRUE(f.write(l));
    ASSERT_TRUE(f.write("\n"));
  }
  ASSERT_TRUE(f.close().ok());
}

struct ReadBack {
  std::vector<std::string> lines;
  LineRead read;
};

ReadBack read_back(const std::string& path) {
  ReadBack out;
  out.read = for_each_line(
      path, 1 << 20,
      [&](std::size_t n, std::string_view line) {
        EXPECT_EQ(n, out.lines.size() + 1);
        out.lines.emplace_back(line);
        return true;
      },
      [](std::size_t n) { ADD_FAILURE() << "line " << n << " is not overlong"; });
  return out;
}

// Lines like a full run's records: alike, but each its own, and more than several flushes' worth.
std::vector<std::string> record_lines(int n) {
  std::vector<std::string> lines;
  for (int i = 0; i < n; ++i) {
    lines.push_back(R"({"duration_ns":")" + std::to_string(1000 + i % 977) +
                    R"(","fd":7,"kind":"record","phase":"measure","seq":")" + std::to_string(i) +
                    R"(","syscall":"pread64","t_ns":")" + std::to_string(5'000'000'000LL + i * 37) +
                    R"(","type":"syscall"})");
  }
  return lines;
}

TEST(CompressedFile, reads_back_as_the_exact_text_in_a_fraction_of_its_bytes) {
  test::TempDir dir;
  const auto lines = record_lines(120'000);  // about 17 MB of text: several 4 MiB flushes
  const std::string path = dir.path() + "/x.events.jsonl.zst";
  write_compressed(path, lines);
  const ReadBack back = read_back(path);
  EXPECT_EQ(back.read.error, "");
  EXPECT_EQ(back.lines, lines);
  std::uint64_t text = 0;
  for (const auto& l : lines) text += l.size() + 1;
  EXPECT_EQ(back.read.bytes, text);
  EXPECT_LT(fs::file_size(path) * 5, text) << "compressed to less than a fifth";
}

// A text file written by another program (a worker's bridge file) kept compressed afterwards:
// the same lines; the text stays until its caller removes it; an existing target is left alone.
TEST(CompressedFile, compress_file_copies_a_text_file_and_never_replaces_one) {
  test::TempDir dir;
  const auto lines = record_lines(30'000);
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  const std::string plain = dir.write("w.events.jsonl", text);
  const std::string copy = plain + kCompressedSuffix;
  ASSERT_TRUE(compress_file(plain, copy).ok());
  const ReadBack back = read_back(copy);
  EXPECT_EQ(back.read.error, "");
  EXPECT_EQ(back.lines, lines);
  EXPECT_EQ(slurp(plain), text);
  const Status again = compress_file(plain, copy);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().sys_errno, EEXIST);
  EXPECT_NE(again.error().message.find("File exists"), std::string::npos) << again.error().message;
  EXPECT_EQ(read_back(copy).lines, lines) << "the existing copy is untouched";
  EXPECT_FALSE(compress_file(dir.path() + "/absent", dir.path() + "/absent.zst"));
  EXPECT_FALSE(fs::exists(dir.path() + "/absent.zst"));
}

// A run's text file replaced by its compressed copy: the name kept is given back; a file that is
// not there (or not a regular file) is left as it is, under its own name.
TEST(CompressedFile, keep_compressed_replaces_the_text_by_its_copy) {
  test::TempDir dir;
  const auto lines = record_lines(2'000);
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  dir.write("w.events.jsonl", text);
  const std::string kept = keep_compressed(dir.path(), "w.events.jsonl");
  EXPECT_EQ(kept, std::string("w.events.jsonl") + kCompressedSuffix);
  EXPECT_FALSE(fs::exists(dir.path() + "/w.events.jsonl"));
  EXPECT_EQ(read_back(dir.path() + "/" + kept).lines, lines);
  EXPECT_EQ(keep_compressed(dir.path(), "absent.jsonl"), "absent.jsonl");
  EXPECT_FALSE(fs::exists(dir.path() + "/absent.jsonl.zst"));
  fs::create_directory(dir.path() + "/d");
  EXPECT_EQ(keep_compressed(dir.path(), "d"), "d");
}

TEST(CompressedFile, never_replaces_a_file_and_says_why) {
  test::TempDir dir;
  const std::string path = dir.write("taken.zst", "someone else's\n");
  CompressedFile f;
  const Status opened = f.open(path);
  ASSERT_FALSE(opened);
  EXPECT_NE(opened.error().message.find("cannot create " + path + ": File exists"),
            std::string::npos)
      << opened.error().message;
  EXPECT_FALSE(f.write("x"));
  EXPECT_EQ(slurp(path), "someone else's\n");
}

TEST(CompressedFile, a_cut_altered_or_extended_frame_fails_after_the_lines_it_could_read) {
  test::TempDir dir;
  const auto lines = record_lines(80'000);
  const std::string whole = dir.path() + "/whole.zst";
  write_compressed(whole, lines);
  const std::string bytes = slurp(whole);
  ASSERT_GT(bytes.size(), 4096u);

  // Killed mid-way: the bytes up to some point, the frame never ended.
  const std::string cut = dir.path() + "/cut.zst";
  spit(cut, bytes.substr(0, bytes.size() / 2));
  ReadBack back = read_back(cut);
  EXPECT_NE(back.read.error, "");
  EXPECT_LT(back.lines.size(), lines.size());
  for (std::size_t i = 0; i < back.lines.size(); ++i) {
    // What was read is what was written, except maybe a last line cut inside.
    if (i + 1 < back.lines.size()) {
      EXPECT_EQ(back.lines[i], lines[i]) << i;
    }
  }

  // 64 bytes taken out of the middle.
  const std::string hole = dir.path() + "/hole.zst";
  spit(hole, bytes.substr(0, bytes.size() / 2) + bytes.substr(bytes.size() / 2 + 64));
  EXPECT_NE(read_back(hole).read.error, "");

  // One byte changed near the end (inside the last block or the checksum).
  std::string flipped = bytes;
  flipped[flipped.size() - 3] = static_cast<char>(flipped[flipped.size() - 3] ^ 0x5a);
  const std::string altered = dir.path() + "/altered.zst";
  spit(altered, flipped);
  EXPECT_NE(read_back(altered).read.error, "");

  // Bytes appended after the frame.
  const std::string extended = dir.path() + "/extended.zst";
  spit(extended, bytes + "{\"kind\":\"record\"}\n");
  EXPECT_NE(read_back(extended).read.error, "");
}

TEST(CompressedFile, the_event_checker_refuses_a_cut_file_it_read_in_part) {
  test::TempDir dir;
  std::vector<std::string> lines = {
      R"({"kind":"header","schema":"jbench.events","schema_version":1,"collector":"spans",)"
      R"("backend":"bridge","clock":"CLOCK_MONOTONIC","units":{"t_ns":"ns"},"run_id":"r1",)"
      R"("boot_id":"b"})"};
  const int spans = 25'000;
  for (int i = 0; i < 2 * spans; ++i) {
    const std::string id = std::to_string(i / 2);
    const std::string type = i % 2 == 0
                                 ? R"("span_begin","span_id":")" + id + R"(","parent_id":null)"
                                 : R"("span_end","span_id":")" + id + R"(")";
    lines.push_back(R"({"kind":"record","type":)" + type + R"(,"seq":")" + std::to_string(i) +
                    R"(","pid":7,"start_time_ticks":"100","tid":7,"t_ns":")" +
                    std::to_string(1000 + i) + R"("})");
  }
  lines.push_back(R"({"kind":"trailer","records":)" + std::to_string(2 * spans) +
                  R"(,"dropped":0,"malformed":0,"ended":{"how":"exit","code":0}})");
  const std::string whole = dir.path() + "/whole.events.jsonl.zst";
  write_compressed(whole, lines);
  const EventContext ctx{"r1", "b", {{7, 100}}};
  const EventFileReport good = check_event_file(whole, ctx);
  for (const auto& p : good.problems) ADD_FAILURE() << p.code << ": " << p.message;
  EXPECT_EQ(good.records, static_cast<std::uint64_t>(2 * spans));

  const std::string bytes = slurp(whole);
  const std::string cut = dir.path() + "/cut.events.jsonl.zst";
  spit(cut, bytes.substr(0, bytes.size() / 2) + bytes.substr(bytes.size() / 2 + 64));
  const EventFileReport bad = check_event_file(cut, ctx);
  bool unreadable = false;
  for (const auto& p : bad.problems) unreadable = unreadable || p.code == "events.unreadable";
  EXPECT_TRUE(unreadable);
}

}  // namespace
}  // namespace jbench
