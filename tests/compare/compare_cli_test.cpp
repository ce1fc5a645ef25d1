// `jbench compare` on checked-in bundles from real runs (tests/fixtures/compare/bundles, made
// with the matrices beside them): a planted regression is found; the same build twice finds
// none; disjoint cells give no verdict (exit 4); an invalid bundle gives no verdict with the
// validator's findings; a different matrix is refused with the differing key named (exit 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "jbench/schema/json_schema.h"
#include "run_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;

const std::string kBundles = JBENCH_SOURCE_DIR + "/tests/fixtures/compare/bundles";

test::ProcessResult compare(std::vector<std::string> args) {
  std::vector<std::string> argv = {JBENCH_BINARY, "compare"};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run_process(argv);
}

// The --json document, held to its schema (manifests/compare-report.schema.json) every time.
nlohmann::json compare_json(std::vector<std::string> args) {
  args.push_back("--json");
  auto r = compare(args);
  nlohmann::json doc = nlohmann::json::parse(r.out);
  auto schema = JsonSchema::builtin("compare-report.schema.json");
  EXPECT_TRUE(schema) << schema.error().message;
  if (schema) {
    for (const auto& v : schema->validate(doc)) ADD_FAILURE() << v.pointer << ": " << v.message;
  }
  return doc;
}

TEST(CompareCli, a_planted_regression_is_found_and_named) {
  auto r =
      compare({kBundles + "/writer-a", kBundles + "/writer-planted", "--allow-different-settings"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("compared across settings: workload.params.plant_fsync_file: none -> "
                       "plant.log"),
            std::string::npos)
      << r.out;
  nlohmann::json j = compare_json(
      {kBundles + "/writer-a", kBundles + "/writer-planted", "--allow-different-settings"});
  EXPECT_EQ(j["outcome"], "regression");
  EXPECT_EQ(j["exit_code"], 1);
  bool throughput = false;
  for (const auto& row : j["rows"]) {
    if (row["metric"] != "throughput_ops_per_s") continue;
    throughput = true;
    EXPECT_EQ(row["cell"], "w1.persistent.writer.small.baseline");
    EXPECT_EQ(row["verdict"], "regressed");
    EXPECT_LT(row["ci_high"].get<double>(), 1.0);
    EXPECT_LE(row["q"].get<double>(), 0.05);
  }
  EXPECT_TRUE(throughput);
}

// --format csv: one row per cell and metric, the JSON's rows in the same order with the same
// figures; the exit code and the verdict's sentence (on stderr) as with text. Markdown: the same
// rows as a table.
TEST(CompareCli, csv_and_markdown_hold_the_jsons_rows_and_keep_the_exit_code) {
  const std::vector<std::string> sides = {kBundles + "/writer-a", kBundles + "/writer-planted",
                                          "--allow-different-settings"};
  const nlohmann::json j = compare_json(sides);
  auto args = sides;
  args.insert(args.end(), {"--format", "csv"});
  const auto csv = compare(args);
  EXPECT_EQ(csv.exit_code, 1) << csv.err;
  EXPECT_NE(csv.err.find("jbench compare: "), std::string::npos) << csv.err;
  std::istringstream lines(csv.out);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "cell,metric,unit,base_median,candidate_median,ratio,ratio_low,ratio_high,p,q,"
            "verdict,detectable_change_pct,base_runs,candidate_runs,reason");
  std::size_t n = 0;
  for (std::string line; std::getline(lines, line); ++n) {
    ASSERT_LT(n, j["rows"].size());
    const nlohmann::json& row = j["rows"][n];
    std::vector<std::string> f;
    for (std::istringstream l(line); std::getline(l, f.emplace_back(), ',');) {
    }
    ASSERT_GE(f.size(), 14u) << line;  // the reason, last, may hold commas
    EXPECT_EQ(f[0], row["cell"]);
    EXPECT_EQ(f[1], row["metric"]);
    EXPECT_EQ(f[10], row["verdict"]);
    EXPECT_NEAR(std::stod(f[3]), row["base_median"].get<double>(),
                1e-5 * std::abs(row["base_median"].get<double>()));
    if (row["ratio"].is_number()) {
      EXPECT_NEAR(std::stod(f[5]), row["ratio"].get<double>(), 1e-5) << line;
    }
    if (row["metric"] == "throughput_ops_per_s") {
      EXPECT_EQ(f[2], "ops/s");
    }
  }
  EXPECT_EQ(n, j["rows"].size());
  args.back() = "markdown";
  const auto md = compare(args);
  EXPECT_EQ(md.exit_code, 1);
  EXPECT_EQ(md.out.rfind("| cell | metric | unit |", 0), 0u) << md.out;
  EXPECT_EQ(static_cast<std::size_t>(std::count(md.out.begin(), md.out.end(), '\n')),
            j["rows"].size() + 2);
  args.push_back("--json");
  EXPECT_EQ(compare(args).exit_code, 2);
}

TEST(CompareCli, the_same_build_twice_finds_no_regression) {
  for (const auto& pair : {std::pair{"writer-a", "writer-b"}, std::pair{"writer-b", "writer-a"},
                           std::pair{"writer-a", "writer-a"}}) {
    nlohmann::json j = compare_json({kBundles + "/" + pair.first, kBundles + "/" + pair.second});
    EXPECT_NE(j["outcome"], "regression") << j.dump(2);
    for (const auto& row : j["rows"]) {
      EXPECT_NE(row["verdict"], "regressed") << row.dump();
      EXPECT_NE(row["verdict"], "improved") << row.dump();
    }
    // Nothing measured is never a pass: all unknown is exit 4, not 0.
    bool any_known = false;
    for (const auto& row : j["rows"]) any_known = any_known || row["verdict"] != "unknown";
    EXPECT_EQ(j["exit_code"], any_known ? 0 : 4);
  }
}

TEST(CompareCli, disjoint_cells_give_no_verdict_and_are_listed) {
  auto r = compare({kBundles + "/writer-a", kBundles + "/reader"});
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_NE(r.out.find("only in the base (not compared): w1.persistent.writer.small.baseline"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("only in the candidate (not compared): w1.persistent.reader.small.baseline"),
            std::string::npos);
  EXPECT_NE(r.out.find("no cell in common"), std::string::npos);
}

TEST(CompareCli, an_invalid_bundle_gives_no_verdict_with_the_validators_findings) {
  test::TempDir dir;
  fs::copy(kBundles + "/writer-b", dir.path() + "/b", fs::copy_options::recursive);
  // A changed throughput: the checksum and the recomputed summary both disagree now.
  std::string summary;
  for (const auto& e : fs::directory_iterator(dir.path() + "/b/runs")) {
    summary = e.path().string() + "/summary.json";
    break;
  }
  nlohmann::json s = nlohmann::json::parse(std::ifstream(summary));
  s["throughput_ops_per_s"] = s["throughput_ops_per_s"].get<double>() * 10;
  std::ofstream(summary) << s.dump(2) << "\n";
  auto r = compare({kBundles + "/writer-a", dir.path() + "/b"});
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_NE(r.out.find("is invalid"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sums.mismatch"), std::string::npos) << r.out;
  // One that also records itself invalid is refused with what made it so, not with its mark.
  nlohmann::json verdict = nlohmann::json::parse(std::ifstream(dir.path() + "/b/validation.json"));
  verdict["valid"] = false;
  std::ofstream(dir.path() + "/b/validation.json", std::ios::trunc) << verdict.dump();
  const auto marked = compare({kBundles + "/writer-a", dir.path() + "/b"});
  EXPECT_EQ(marked.exit_code, 4) << marked.out;
  EXPECT_NE(marked.out.find("findings): sums.mismatch"), std::string::npos) << marked.out;
  auto missing = compare({kBundles + "/writer-a", dir.path() + "/nothing-here"});
  EXPECT_EQ(missing.exit_code, 4);
  EXPECT_NE(missing.out.find("cannot be read"), std::string::npos) << missing.out;
}

TEST(CompareCli, an_archive_compares_as_its_bundle_and_a_refused_one_gives_no_verdict) {
  test::TempDir dir;
  const std::string archive = dir.path() + "/writer-b.tar.zst";
  auto made = test::run_process({JBENCH_BINARY, "archive", kBundles + "/writer-b", "-o", archive});
  ASSERT_EQ(made.exit_code, 0) << made.out << made.err;
  nlohmann::json from_dir = compare_json({kBundles + "/writer-a", kBundles + "/writer-b"});
  nlohmann::json from_archive = compare_json({kBundles + "/writer-a", archive});
  EXPECT_EQ(from_archive["candidate"], archive);
  EXPECT_EQ(from_archive["outcome"], from_dir["outcome"]);
  EXPECT_EQ(from_archive["rows"], from_dir["rows"]);  // the same runs, the same seeded figures
  // The extracted copy is removed afterwards.
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path())) {
    EXPECT_FALSE(e.path().filename().string().starts_with("jbench-archive-") &&
                 fs::is_directory(e.path() / "writer-b"))
        << e.path();
  }

  const std::string junk = dir.path() + "/junk.tar.zst";
  std::ofstream(junk) << "not an archive at all\n";
  auto r = compare({kBundles + "/writer-a", junk});
  EXPECT_EQ(r.exit_code, 4) << r.out;
  EXPECT_NE(r.out.find("cannot be read"), std::string::npos) << r.out;
}

// A folder of bundles of one matrix and build is one side, its runs pooled (sessions interleaved
// with another build's); a folder mixing matrices is not evidence of one thing.
TEST(CompareCli, a_folder_of_bundles_is_one_side_with_its_runs_pooled) {
  test::TempDir dir;
  fs::create_directories(dir.path() + "/pooled");
  fs::copy(kBundles + "/writer-a", dir.path() + "/pooled/s1", fs::copy_options::recursive);
  fs::copy(kBundles + "/writer-b", dir.path() + "/pooled/s2", fs::copy_options::recursive);
  nlohmann::json j = compare_json({dir.path() + "/pooled", kBundles + "/writer-a"});
  EXPECT_EQ(j["base_bundles"].size(), 2u) << j.dump(2);
  ASSERT_FALSE(j["rows"].empty()) << j.dump(2);
  for (const auto& row : j["rows"]) {
    if (row["metric"] == "throughput_ops_per_s") {
      EXPECT_EQ(row["n_base"], 12);  // 6 + 6 runs
      EXPECT_EQ(row["n_candidate"], 6);
    }
  }
  auto text = compare({dir.path() + "/pooled", kBundles + "/writer-a"});
  EXPECT_NE(text.out.find("the base pools 2 bundles"), std::string::npos) << text.out;

  fs::copy(kBundles + "/writer-planted", dir.path() + "/pooled/s3", fs::copy_options::recursive);
  auto mixed = compare({dir.path() + "/pooled", kBundles + "/writer-a"});
  EXPECT_EQ(mixed.exit_code, 4) << mixed.out;
  EXPECT_NE(mixed.out.find("measured another matrix"), std::string::npos) << mixed.out;
  EXPECT_NE(mixed.out.find("plant_fsync_file"), std::string::npos) << mixed.out;

  // An empty folder is neither a bundle nor bundles: no verdict, and why.
  fs::create_directories(dir.path() + "/empty");
  auto empty = compare({dir.path() + "/empty", kBundles + "/writer-a"});
  EXPECT_EQ(empty.exit_code, 4) << empty.out;
  EXPECT_NE(empty.out.find("cannot be read"), std::string::npos) << empty.out;
}

TEST(CompareCli, a_different_matrix_is_refused_with_the_key_named) {
  auto r = compare({kBundles + "/writer-a", kBundles + "/writer-planted"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("refused: matrix: workload.params.plant_fsync_file: none -> plant.log"),
            std::string::npos)
      << r.out;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(CompareCli, html_writes_the_page_and_keeps_stdout_and_the_exit_code) {
  test::TempDir dir;
  const std::string page = dir.path() + "/compare.html";
  auto r = compare({kBundles + "/writer-a", kBundles + "/writer-planted",
                    "--allow-different-settings", "--json", "--html", page});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the comparison's, as without --html
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["outcome"], "regression");
  EXPECT_EQ(r.err, "compare page: " + page + "\n");
  const std::string html = read_text(page);
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>")) << html.substr(0, 200);
  std::size_t regressed = 0;
  for (std::size_t at = 0; (at = html.find("data-verdict=\"regressed\"", at)) != std::string::npos;
       ++at) {
    ++regressed;
  }
  std::size_t regressed_rows = 0;
  for (const auto& row : doc["rows"]) regressed_rows += row["verdict"] == "regressed";
  EXPECT_GE(regressed_rows, 3u);
  EXPECT_EQ(regressed, regressed_rows);
  EXPECT_FALSE(fs::exists(page + ".tmp"));
}

TEST(CompareCli, html_to_a_path_that_cannot_be_written_exits_3_with_one_message) {
  test::TempDir dir;
  const std::string page = dir.path() + "/no-such-dir/compare.html";
  auto r = compare({kBundles + "/writer-a", kBundles + "/writer-b", "--html", page});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err, "jbench: error: cannot write " + page + ": No such file or directory\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(dir.path() + "/no-such-dir"));
}

}  // namespace
}  // namespace jbench
