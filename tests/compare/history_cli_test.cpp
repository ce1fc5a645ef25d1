// `jbench history` over a folder of real bundles (copies of the checked-in ones): a level shift
// — eight nights of the writer, then eight with the planted cost — is one change point for the
// worse at the first planted night, exit 1 (at the default alpha of 0.001 a shift needs about
// seven nights on each side: fewer cannot reach it even when every night agrees); an invalid bundle
// is a gap, never a point; too few nights give no verdict (exit 4).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "jbench/schema/json_schema.h"
#include "run_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;

const std::string kFixtureBundles = JBENCH_SOURCE_DIR + "/tests/fixtures/compare/bundles";

nlohmann::json history(const std::string& dir, int& exit_code) {
  auto r = test::run_process({JBENCH_BINARY, "history", dir, "--json"});
  exit_code = r.exit_code;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  auto schema = JsonSchema::builtin("history.schema.json");
  EXPECT_TRUE(schema) << schema.error().message;
  if (schema) {
    for (const auto& v : schema->validate(doc)) ADD_FAILURE() << v.pointer << ": " << v.message;
  }
  return doc;
}

void copy_bundle(const std::string& from, const std::string& to) {
  fs::copy(kFixtureBundles + "/" + from, to, fs::copy_options::recursive);
}

TEST(HistoryCli, a_level_shift_is_one_change_for_the_worse_at_its_first_night) {
  test::TempDir dir;
  // The planted bundle started after the other two, so its copies sort after theirs.
  for (int i = 0; i < 8; ++i) {
    copy_bundle(i % 2 ? "writer-b" : "writer-a", dir.path() + "/n0" + std::to_string(i));
  }
  for (int i = 0; i < 8; ++i) copy_bundle("writer-planted", dir.path() + "/p0" + std::to_string(i));
  // An invalid night: one of the copies with a summary changed after it was sealed.
  copy_bundle("writer-b", dir.path() + "/x-edited");
  for (const auto& e : fs::directory_iterator(dir.path() + "/x-edited/runs")) {
    std::ofstream(e.path() / "summary.json", std::ios::app) << " ";
    break;
  }
  int code = -1;
  nlohmann::json h = history(dir.path(), code);
  EXPECT_EQ(code, 1) << h.dump(2);
  EXPECT_EQ(h["bundles"].size(), 17u);
  std::size_t gaps = 0;
  for (const auto& b : h["bundles"]) {
    if (!b["usable"].get<bool>()) {
      ++gaps;
      EXPECT_NE(b["dir"].get<std::string>().find("x-edited"), std::string::npos);
      EXPECT_NE(b["gap_reason"].get<std::string>().find("invalid"), std::string::npos);
    }
  }
  EXPECT_EQ(gaps, 1u);
  bool found = false;
  for (const auto& s : h["series"]) {
    if (s["metric"] != "throughput_ops_per_s") continue;
    EXPECT_EQ(s["values"].size(), 16u);  // the gap is not a point
    ASSERT_EQ(s["changes"].size(), 1u) << s.dump();
    const auto& c = s["changes"][0];
    EXPECT_TRUE(c["worse"].get<bool>());
    EXPECT_LT(c["ratio"].get<double>(), 0.5);
    const std::string first = h["bundles"][c["bundle"].get<std::size_t>()]["dir"];
    EXPECT_NE(first.find("/p0"), std::string::npos) << first;
    found = true;
  }
  EXPECT_TRUE(found);
}

// Real runs of the tiny nightly matrix, then of the same matrix with a shorter measure phase:
// another measurement, so a series of its own (one definition per series), never points on the
// first one's line.
TEST(HistoryCli, a_night_with_another_measure_phase_starts_a_new_series) {
  test::TempDir dir;
  const std::string fixtures = JBENCH_SOURCE_DIR + "/tests/fixtures";
  std::ifstream in(fixtures + "/compare/nightly-tiny.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  for (auto [from, to] : {std::pair<std::string, std::string>{"measure: {operations: 600}",
                                                              "measure: {operations: 500}"},
                          {"oracle: ../oracle/corpus-and-ledger.yaml",
                           "oracle: " + fixtures + "/oracle/corpus-and-ledger.yaml"}}) {
    const auto at = yaml.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    yaml.replace(at, from.size(), to);
  }
  std::ofstream(dir.path() + "/shorter.yaml") << yaml;
  const std::string results = dir.path() + "/results";
  for (const auto& [matrix, name] :
       {std::pair<std::string, std::string>{fixtures + "/compare/nightly-tiny.yaml", "night-1"},
        {dir.path() + "/shorter.yaml", "night-2"}}) {
    test::ProcessOptions options;
    options.timeout = std::chrono::seconds(120);
    auto r = test::run_process({JBENCH_BINARY, "run", matrix, "--out", results, "--name", name},
                               options);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  int code = -1;
  nlohmann::json h = history(results, code);
  std::map<std::string, std::set<std::string>> definitions;  // metric -> definitions
  for (const auto& s : h["series"]) {
    EXPECT_EQ(s["values"].size(), 1u) << s.dump();  // one night each, never joined
    definitions[s["metric"]].insert(s["definition"].get<std::string>());
  }
  ASSERT_TRUE(definitions.count("throughput_ops_per_s")) << h.dump(2);
  EXPECT_EQ(definitions["throughput_ops_per_s"].size(), 2u);
  auto text_run = test::run_process({JBENCH_BINARY, "history", results});
  EXPECT_NE(text_run.out.find("(definition "), std::string::npos) << text_run.out;
}

// The throughput of every run of the fixture bundles named, in the order given.
std::vector<double> throughputs(const std::vector<std::string>& bundles) {
  std::vector<double> out;
  for (const std::string& b : bundles) {
    for (const auto& e : fs::directory_iterator(kFixtureBundles + "/" + b + "/runs")) {
      std::ifstream in(e.path() / "summary.json");
      out.push_back(nlohmann::json::parse(in)["throughput_ops_per_s"].get<double>());
    }
  }
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// A night of interleaved sessions is a folder of bundles: one point, its sessions' runs pooled.
// What sits deeper (the night's replay of the previous build in base/) is not read, a folder
// without bundles is not a night, and a night whose sessions measured different settings is a
// gap, never a point.
TEST(HistoryCli, a_folder_of_sessions_is_one_pooled_night) {
  test::TempDir dir;
  fs::create_directories(dir.path() + "/n1/base");
  copy_bundle("writer-a", dir.path() + "/n1/s1");
  copy_bundle("writer-b", dir.path() + "/n1/s2");
  copy_bundle("writer-planted", dir.path() + "/n1/base/s1");
  copy_bundle("writer-b", dir.path() + "/n2");
  fs::create_directories(dir.path() + "/n3-mixed");
  copy_bundle("writer-a", dir.path() + "/n3-mixed/s1");
  copy_bundle("writer-planted", dir.path() + "/n3-mixed/s2");
  fs::create_directories(dir.path() + "/builds/0123456789abcdef/bin");
  std::ofstream(dir.path() + "/builds/0123456789abcdef/build.json") << "{}";
  int code = -1;
  nlohmann::json h = history(dir.path(), code);
  ASSERT_EQ(h["bundles"].size(), 3u) << h.dump(2);
  std::map<std::string, nlohmann::json> by_dir;
  for (const auto& b : h["bundles"]) by_dir[fs::path(b["dir"].get<std::string>()).filename()] = b;
  ASSERT_TRUE(by_dir.count("n1") && by_dir.count("n2") && by_dir.count("n3-mixed")) << h.dump(2);
  EXPECT_TRUE(by_dir["n1"]["usable"].get<bool>());
  EXPECT_FALSE(by_dir["n3-mixed"]["usable"].get<bool>());
  EXPECT_NE(by_dir["n3-mixed"]["gap_reason"].get<std::string>().find("another matrix"),
            std::string::npos)
      << by_dir["n3-mixed"].dump();
  bool found = false;
  for (const auto& s : h["series"]) {
    if (s["metric"] != "throughput_ops_per_s") continue;
    ASSERT_EQ(s["values"].size(), 2u) << s.dump();  // n1 and n2; the mixed night is a gap
    for (std::size_t i = 0; i < 2; ++i) {
      const std::string night =
          fs::path(h["bundles"][s["bundles"][i].get<std::size_t>()]["dir"].get<std::string>())
              .filename();
      const double expected = night == "n1" ? median(throughputs({"writer-a", "writer-b"}))
                                            : median(throughputs({"writer-b"}));
      EXPECT_DOUBLE_EQ(s["values"][i].get<double>(), expected) << night;
    }
    found = true;
  }
  EXPECT_TRUE(found) << h.dump(2);
}

TEST(HistoryCli, a_few_nights_give_no_verdict) {
  test::TempDir dir;
  copy_bundle("writer-a", dir.path() + "/a");
  copy_bundle("writer-b", dir.path() + "/b");
  int code = -1;
  nlohmann::json h = history(dir.path(), code);
  EXPECT_EQ(code, 4);
  EXPECT_EQ(h["outcome"], "no_verdict");
  EXPECT_NE(h["summary"].get<std::string>().find("no series has the 10 usable bundles"),
            std::string::npos);
}

TEST(HistoryCli, html_writes_the_page_with_every_bundle_and_a_bad_path_exits_3) {
  test::TempDir dir;
  copy_bundle("writer-a", dir.path() + "/a");
  copy_bundle("writer-b", dir.path() + "/b");
  const std::string page = dir.path() + "/history.html";
  auto r = test::run_process({JBENCH_BINARY, "history", dir.path(), "--html", page});
  EXPECT_EQ(r.exit_code, 4) << r.err;  // the history's, as without --html
  EXPECT_NE(r.out.find("no series has the 10 usable bundles"), std::string::npos) << r.out;
  std::ifstream in(page);
  const std::string html((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(html.find("class=\"banner outcome no_verdict\""), std::string::npos);
  EXPECT_NE(html.find("data-bundle=\"1\" data-usable=\"true\""), std::string::npos);

  const std::string bad = dir.path() + "/a/manifest.json/history.html";  // under a file
  auto refused = test::run_process({JBENCH_BINARY, "history", dir.path(), "--html", bad});
  EXPECT_EQ(refused.exit_code, 3);
  EXPECT_EQ(refused.err, "jbench: error: cannot write " + bad + ": Not a directory\n");
  EXPECT_EQ(refused.out, "");
}

}  // namespace
}  // namespace jbench
