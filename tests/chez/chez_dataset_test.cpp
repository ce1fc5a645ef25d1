// `jbench-chez-worker build-dataset` (docs/chez-worker.md, "Dataset"): a deterministic file
// whose content is SplitMix64 of the seed exactly as the harness's C++ generator draws it,
// reported in one JSON line, never overwriting anything, and one error line (exit 2) for every
// bad argument.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "chez_worker.h"
#include "jbench/common/random.h"

namespace jbench::test {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::uint64_t le(const std::string& bytes, std::size_t at, std::size_t width) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i) {
    v |= std::uint64_t{static_cast<unsigned char>(bytes[at + i])} << (8 * i);
  }
  return v;
}

// The payload filler of the format: xorshift32 (13, 17, 5) seeded from one 64-bit draw (its
// halves xored; 0x9e3779b9 if that is 0), four little-endian bytes per step.
std::string expected_payload(std::uint64_t seed, std::size_t n) {
  auto x = static_cast<std::uint32_t>((seed ^ (seed >> 32)) & 0xffffffffu);
  if (x == 0) x = 0x9e3779b9u;
  std::string out;
  while (out.size() < n) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    for (int j = 0; j < 4 && out.size() < n; ++j) out.push_back(static_cast<char>(x >> (8 * j)));
  }
  return out;
}

TEST(ChezDataset, ContentIsTheSeedsSplitMix64StreamAsTheHarnessDrawsIt) {
  const std::uint64_t seed = 0xfedcba9876543210ULL;  // above 2^63: exercises 64-bit wrap-around
  ChezDataset d(300, 13, seed);
  const std::string bytes = read_file(d.db);
  ASSERT_EQ(bytes.size(), 32u + 300u * (4u + 13u));
  EXPECT_EQ(bytes.substr(0, 8), "JBCHEZD1");
  EXPECT_EQ(le(bytes, 8, 8), 300u);
  EXPECT_EQ(le(bytes, 16, 8), 13u);
  EXPECT_EQ(le(bytes, 24, 8), seed);
  SplitMix64 rng(seed);
  std::size_t at = 32;
  for (int id = 1; id <= 300; ++id) {
    const std::uint64_t val = rng.below(1000);
    const std::uint64_t payload_seed = rng.next();
    ASSERT_EQ(le(bytes, at, 4), val) << "record " << id;
    ASSERT_EQ(bytes.substr(at + 4, 13), expected_payload(payload_seed, 13)) << "record " << id;
    at += 4 + 13;
  }
}

TEST(ChezDataset, SameArgumentsSameBytesOtherSeedOtherBytes) {
  ChezDataset a(1000, 40, 5);
  ChezDataset b(1000, 40, 5);
  ChezDataset c(1000, 40, 6);
  EXPECT_EQ(read_file(a.db), read_file(b.db));
  EXPECT_NE(read_file(a.db), read_file(c.db));
}

TEST(ChezDataset, ReportDescribesTheFile) {
  ChezDataset d(2500, 0, 9);  // row_bytes 0: items without payload are allowed
  EXPECT_EQ(d.report["type"], "dataset");
  EXPECT_EQ(d.report["format"], "jbench.chez_dataset/1");
  EXPECT_EQ(d.report["rows"], 2500);
  EXPECT_EQ(d.report["row_bytes"], 0);
  EXPECT_EQ(d.report["seed"], "9");
  struct stat st {};
  ASSERT_EQ(::stat(d.db.c_str(), &st), 0);
  EXPECT_EQ(d.report["file_bytes"], st.st_size);
  EXPECT_GT(ns(d.report["build_ns"]), 0u);
  // Nothing is left beside it.
  EXPECT_NE(::stat((d.db + ".building").c_str(), &st), 0);
}

TEST(ChezDataset, NeverOverwrites) {
  ChezDataset d(10, 4, 1);
  const std::string before = read_file(d.db);
  const auto again = run_chez_command(
      {"build-dataset", "--db", d.db, "--rows", "20", "--row-bytes", "4", "--seed", "2"});
  EXPECT_EQ(again.status.code, 2);
  ASSERT_EQ(again.lines.size(), 1u);
  EXPECT_EQ(again.lines[0]["type"], "error");
  EXPECT_EQ(read_file(d.db), before);
  // A leftover of an interrupted build blocks the name too.
  const std::string fresh = d.dir.path() + "/fresh.db";
  d.dir.write("fresh.db.building", "half");
  const auto blocked = run_chez_command(
      {"build-dataset", "--db", fresh, "--rows", "20", "--row-bytes", "4", "--seed", "2"});
  EXPECT_EQ(blocked.status.code, 2);
  struct stat st {};
  EXPECT_NE(::stat(fresh.c_str(), &st), 0);
}

TEST(ChezDataset, EveryBadArgumentIsOneErrorLineAndExitTwo) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  const std::vector<std::vector<std::string>> bad = {
      {"--rows", "1", "--row-bytes", "1", "--seed", "1"},  // no --db
      {"--db", db, "--rows", "1", "--row-bytes", "1", "--seed", "1", "--x", "1"},
      {"--db", db, "--db", db, "--rows", "1", "--row-bytes", "1", "--seed", "1"},
      {"--db", db, "--rows", "0", "--row-bytes", "1", "--seed", "1"},
      {"--db", db, "--rows", "1", "--row-bytes", "1048577", "--seed", "1"},
      {"--db", db, "--rows", "-1", "--row-bytes", "1", "--seed", "1"},
      {"--db", db, "--rows", "1", "--row-bytes", "1", "--seed", "18446744073709551616"},
      {"--db", "relative.db", "--rows", "1", "--row-bytes", "1", "--seed", "1"},
      {"--db", db, "--rows", "1", "--row-bytes", "1", "--seed"},
  };
  for (const auto& args : bad) {
    std::vector<std::string> argv = {"build-dataset"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto run = run_chez_command(argv);
    SCOPED_TRACE(run.err);
    EXPECT_TRUE(run.status.exited);
    EXPECT_EQ(run.status.code, 2);
    ASSERT_EQ(run.lines.size(), 1u);
    EXPECT_EQ(run.lines[0]["type"], "error");
    struct stat st {};
    EXPECT_NE(::stat(db.c_str(), &st), 0);
  }
}

}  // namespace
}  // namespace jbench::test
