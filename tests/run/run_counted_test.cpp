// Counted runs (docs/trace-modes.md, "counted"): real SQLite workers inside real callgrind,
// counting from the bridge's measure phase to the worker's last operation. The same seed counts
// the same instructions; a planted cost of known size is counted; without valgrind the mode is
// refused with its reason and no figure is made up.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "run_support.h"
#include "text_file.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct CountedRun {
  std::uint64_t instructions = 0;
  std::uint64_t allocations = 0;  // calls into malloc and its kin
  std::uint64_t operations = 0;
  json vm_steps;
};

// `jbench run MATRIX` (counted and baseline modes); the counted runs' figures by run id.
std::map<std::string, CountedRun> counted_runs(const TempDir& dir, const std::string& matrix,
                                               const std::string& name,
                                               std::vector<std::string> args = {}) {
  RunInvocation inv;
  inv.matrix = matrix;
  inv.name = name;
  inv.args = std::move(args);
  inv.traced = true;
  const auto r = run_jbench_run(dir, inv, unique_tag());
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string bundle = dir.path() + "/out/" + name;
  EXPECT_TRUE(fs::exists(bundle + "/SHA256SUMS")) << "not a valid bundle: " << bundle;
  std::map<std::string, CountedRun> out;
  const json manifest = read_json(bundle + "/manifest.json");
  for (const auto& entry : manifest["runs"]) {
    if (entry["trace"] != "counted") continue;
    const std::string id = entry["id"];
    const std::string run_dir = bundle + "/runs/" + id;
    const json run = read_json(run_dir + "/run.json");
    bool seen = false;
    for (const auto& c : run["trace_mode"]["collectors"]) {
      if (c["name"] != "instructions") {
        // Nothing else observes a counted run but the kernel's accounting.
        if (c["name"] != "cpu") {
          EXPECT_EQ(c["status"], "not_requested") << id << " " << c;
        }
        continue;
      }
      seen = true;
      EXPECT_EQ(c["status"], "ok") << id << " " << c;
      EXPECT_EQ(c["backend"], "callgrind") << c;
      EXPECT_FALSE(c["chosen"].get<std::string>().empty()) << c;  // and why
      EXPECT_EQ(c["version"].get<std::string>().rfind("valgrind-", 0), 0u) << c;
      for (const auto& kept : c["callgrind_files"]) {
        EXPECT_TRUE(fs::is_regular_file(run_dir + "/" + kept.get<std::string>())) << kept;
      }
    }
    EXPECT_TRUE(seen) << id << ": no instructions entry";
    const json summary = read_json(run_dir + "/summary.json");
    const json& counted = summary["collectors"]["instructions"];
    EXPECT_EQ(counted["source"], "callgrind") << counted;
    out[id] = {std::stoull(counted["measure_instructions"].get<std::string>()),
               std::stoull(counted["measure_allocations"].get<std::string>()),
               summary["measure"]["operations"].get<std::uint64_t>(),
               summary["measure"]["vm_steps"]};
  }
  return out;
}

TEST(CountedRuns, the_same_seed_counts_the_same_instructions_within_a_thousandth) {
  TempDir dir;
  const auto a = counted_runs(dir, "instructions.yaml", "a");
  const auto b = counted_runs(dir, "instructions.yaml", "b");
  ASSERT_EQ(a.size(), 2u);  // two repetitions, two seeds
  ASSERT_EQ(b.size(), a.size());
  for (const auto& [id, run] : a) {
    ASSERT_TRUE(b.contains(id)) << id;
    ASSERT_GT(run.instructions, 1000 * run.operations) << id;  // an operation is real work
    EXPECT_EQ(run.operations, 300u) << id;
    const double other = static_cast<double>(b.at(id).instructions);
    EXPECT_LE(std::fabs(other / static_cast<double>(run.instructions) - 1.0), 0.001)
        << id << ": " << run.instructions << " against " << b.at(id).instructions;
    EXPECT_EQ(b.at(id).allocations, run.allocations) << id;
  }
  // The two seeds draw different operations: the count follows the work, not the clock.
  EXPECT_NE(a.begin()->second.instructions, std::next(a.begin())->second.instructions);
}

TEST(CountedRuns, a_planted_cost_of_about_one_percent_is_counted) {
  TempDir dir;
  const auto base = counted_runs(dir, "instructions.yaml", "base");
  const auto planted = counted_runs(dir, "instructions-planted.yaml", "planted");
  ASSERT_EQ(base.size(), 2u);
  ASSERT_EQ(planted.size(), base.size());
  for (const auto& [id, run] : base) {
    ASSERT_TRUE(planted.contains(id)) << id;
    EXPECT_EQ(planted.at(id).vm_steps, run.vm_steps) << id << ": the same statements ran";
    // 120 iterations of a loop of about five instructions on top of ~60,000 an operation.
    const double ratio =
        static_cast<double>(planted.at(id).instructions) / static_cast<double>(run.instructions);
    EXPECT_GT(ratio, 1.005) << id;
    EXPECT_LT(ratio, 1.02) << id;
  }
}

TEST(CountedRuns, planted_allocation_calls_are_counted_exactly) {
  TempDir dir;
  const auto base = counted_runs(dir, "instructions.yaml", "base");
  const auto planted = counted_runs(dir, "instructions-allocations.yaml", "allocations");
  ASSERT_EQ(base.size(), 2u);
  ASSERT_EQ(planted.size(), base.size());
  for (const auto& [id, run] : base) {
    ASSERT_TRUE(planted.contains(id)) << id;
    EXPECT_EQ(planted.at(id).vm_steps, run.vm_steps) << id << ": the same statements ran";
    // Ten malloc calls after every measured operation, and nothing else changed.
    EXPECT_EQ(planted.at(id).allocations, run.allocations + 10 * run.operations)
        << id << ": base " << run.allocations << " over " << run.operations << " operations";
  }
}

// `jbench compare BASE CANDIDATE --json` (settings may differ); the counted cell's
// `metric` row.
json counted_row(const TempDir& dir, const std::string& base, const std::string& candidate,
                 const std::string& metric = "instructions_per_op") {
  const auto r =
      run_process({JBENCH_BINARY, "compare", dir.path() + "/out/" + base,
                   dir.path() + "/out/" + candidate, "--json", "--allow-different-settings"});
  EXPECT_FALSE(r.timed_out);
  const json doc = json::parse(r.out, nullptr, false);
  EXPECT_TRUE(doc.is_object()) << r.out << r.err;
  for (const auto& row : doc["rows"]) {
    if (row["cell"] == "w1.persistent.mixed.small.counted" && row["metric"] == metric) return row;
    // A counted run's times are the counting runtime's: compare never reads them.
    if (row["cell"] == "w1.persistent.mixed.small.counted") {
      EXPECT_NE(row["metric"], "throughput_ops_per_s");
      EXPECT_NE(row["metric"], "p50_ns");
    }
  }
  ADD_FAILURE() << "no " << metric << " row of the counted cell:\n" << r.out;
  return json();
}

TEST(CountedRuns, compare_finds_a_planted_one_percent_and_calls_the_same_build_the_same) {
  TempDir dir;
  const std::vector<std::string> three = {"--repetitions", "3"};
  ASSERT_EQ(counted_runs(dir, "instructions.yaml", "a", three).size(), 3u);
  ASSERT_EQ(counted_runs(dir, "instructions.yaml", "a-again", three).size(), 3u);
  ASSERT_EQ(counted_runs(dir, "instructions-planted.yaml", "planted", three).size(), 3u);

  const json planted = counted_row(dir, "a", "planted");
  EXPECT_EQ(planted["verdict"], "regressed") << planted.dump(1);
  EXPECT_TRUE(planted["paired"].get<bool>());
  EXPECT_EQ(planted["units_base"], 3);  // three pairs, one per seed
  EXPECT_GT(planted["ratio"].get<double>(), 1.005) << planted;
  EXPECT_LT(planted["ratio"].get<double>(), 1.02) << planted;
  EXPECT_GT(planted["ci_low"].get<double>(), 1.0) << planted;
  EXPECT_LT(planted["detectable_change"].get<double>(), 0.005) << planted;

  // Every row says what its runs could have seen: here a fraction of a percent.
  const auto text = run_process({JBENCH_BINARY, "compare", dir.path() + "/out/a",
                                 dir.path() + "/out/planted", "--allow-different-settings"});
  const auto at = text.out.find("w1.persistent.mixed.small.counted            instructions_per_op");
  ASSERT_NE(at, std::string::npos) << text.out;
  const std::string line = text.out.substr(at, text.out.find('\n', at) - at);
  EXPECT_TRUE(line.ends_with("%  regressed")) << line;
  EXPECT_NE(text.out.find("sees = the smallest change these runs could see"), std::string::npos);

  const json same = counted_row(dir, "a", "a-again");
  EXPECT_EQ(same["verdict"], "same") << same.dump(1);
  EXPECT_LE(std::fabs(same["ratio"].get<double>() - 1), 0.001) << same;

  // Allocation calls are counted beside the instructions, paired the same way: the same build
  // makes exactly the same calls, and a planted loop of arithmetic allocates nothing.
  for (const char* candidate : {"a-again", "planted"}) {
    const json calls = counted_row(dir, "a", candidate, "allocations_per_op");
    EXPECT_EQ(calls["verdict"], "same") << candidate << calls.dump(1);
    EXPECT_TRUE(calls["paired"].get<bool>()) << calls;
    EXPECT_DOUBLE_EQ(calls["ratio"].get<double>(), 1.0) << calls;
  }
}

TEST(CountedRuns, the_report_shows_counts_with_their_source_and_never_the_counted_times) {
  TempDir dir;
  const auto runs = counted_runs(dir, "instructions.yaml", "shown");
  ASSERT_EQ(runs.size(), 2u);
  const std::string bundle = dir.path() + "/out/shown";
  const auto r = run_process({JBENCH_BINARY, "report", bundle, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << r.out;
  ASSERT_EQ(doc["counted"].size(), 1u) << doc["counted"];
  const json& cell = doc["counted"][0];
  EXPECT_EQ(cell["cell"], "w1.persistent.mixed.small");
  EXPECT_EQ(cell["counted_runs"], 2);
  EXPECT_EQ(cell["source"].get<std::string>().rfind("callgrind (valgrind-", 0), 0u) << cell;
  std::set<double> expected, shown, expected_calls, shown_calls;
  for (const auto& [id, run] : runs) {
    expected.insert(static_cast<double>(run.instructions) / static_cast<double>(run.operations));
    expected_calls.insert(static_cast<double>(run.allocations) /
                          static_cast<double>(run.operations));
  }
  for (const auto& v : cell["instructions_per_op"]) shown.insert(v.get<double>());
  for (const auto& v : cell["allocations_per_op"]) shown_calls.insert(v.get<double>());
  EXPECT_EQ(shown, expected);
  EXPECT_EQ(shown_calls, expected_calls);
  EXPECT_TRUE(cell["median_allocations_per_op"].is_number()) << cell;

  const auto text = run_process({JBENCH_BINARY, "report", bundle});
  EXPECT_NE(text.out.find("Counted instructions per operation"), std::string::npos) << text.out;
  // The cells table shows a counted row's cost against its baseline, not its throughput.
  const auto cells = run_process({JBENCH_BINARY, "report", bundle, "--cells"});
  ASSERT_EQ(cells.exit_code, 0) << cells.err;
  const auto row = cells.out.find("w1.persistent.mixed.small.counted");
  ASSERT_NE(row, std::string::npos) << cells.out;
  const std::string line = cells.out.substr(row, cells.out.find('\n', row) - row);
  EXPECT_NE(line.find(" counted "), std::string::npos) << line;
  EXPECT_NE(line.find(" x"), std::string::npos) << line;
  EXPECT_EQ(line.find(" us"), std::string::npos) << line;
}

// The codes `jbench validate --json BUNDLE` reports.
std::set<std::string> validation_codes(const std::string& bundle) {
  const auto r = run_process({JBENCH_BINARY, "validate", "--json", bundle});
  const json doc = json::parse(r.out, nullptr, false);
  std::set<std::string> codes;
  if (!doc.is_object()) return {"(no report: " + r.out + r.err + ")"};
  for (const auto& f : doc["findings"]) codes.insert(f["code"].get<std::string>());
  return codes;
}

// Rewrites the first instructions record of a run's raw file through `edit`.
void edit_record(const std::string& run_dir, const std::function<void(json&)>& edit) {
  const std::string path = run_dir + "/raw/instructions.events.jsonl";
  std::ifstream in(path);
  std::string text, line;
  bool done = false;
  while (std::getline(in, line)) {
    json j = json::parse(line);
    if (!done && j["kind"] == "record") {
      edit(j);
      done = true;
    }
    text += j.dump() + "\n";
  }
  in.close();
  std::ofstream(path, std::ios::trunc) << text;
}

TEST(CountedRuns, a_count_that_is_not_the_kept_callgrind_output_is_found) {
  TempDir dir;
  ASSERT_EQ(counted_runs(dir, "instructions.yaml", "kept").size(), 2u);
  const std::string bundle = dir.path() + "/out/kept";
  EXPECT_TRUE(validation_codes(bundle).empty()) << *validation_codes(bundle).begin();
  const std::string r1 = bundle + "/runs/w1.persistent.mixed.small.counted.r1";
  const std::string r2 = bundle + "/runs/w1.persistent.mixed.small.counted.r2";

  // An edited count.
  std::string original;
  edit_record(r1, [&original](json& r) {
    original = r["instructions"];
    r["instructions"] = std::to_string(std::stoull(original) - 1000);
  });
  EXPECT_TRUE(validation_codes(bundle).contains("counted.mismatch"));
  edit_record(r1, [&original](json& r) { r["instructions"] = original; });
  edit_record(r1, [&original](json& r) {
    original = r["allocations"];
    r["allocations"] = std::to_string(std::stoull(original) + 1);
  });
  EXPECT_TRUE(validation_codes(bundle).contains("counted.mismatch"));
  edit_record(r1, [&original](json& r) { r["allocations"] = original; });

  // The entry relabelled as the perf backend, whose counts are not recounted: its records'
  // header still names callgrind.
  const std::string run_json = r1 + "/run.json";
  const std::string kept_run = read_text(run_json);
  json relabelled = json::parse(kept_run);
  for (auto& c : relabelled["trace_mode"]["collectors"]) {
    if (c["name"] == "instructions") c["backend"] = "perf";
  }
  std::ofstream(run_json, std::ios::trunc) << relabelled.dump();
  EXPECT_TRUE(validation_codes(bundle).contains("counted.mismatch"));
  std::ofstream(run_json, std::ios::trunc) << kept_run;

  // Another process's output in its place.
  json kept1, kept2;
  edit_record(r1, [&kept1](json& r) { kept1 = r; });
  edit_record(r2, [&kept2](json& r) { kept2 = r; });
  const std::string own = r1 + "/" + kept1["callgrind"].get<std::string>();
  fs::copy_file(own, own + ".saved");
  fs::copy_file(r2 + "/" + kept2["callgrind"].get<std::string>(), own,
                fs::copy_options::overwrite_existing);
  EXPECT_TRUE(validation_codes(bundle).contains("counted.foreign_output"));

  // No output at all.
  fs::remove(own);
  EXPECT_TRUE(validation_codes(bundle).contains("counted.missing_output"));
  fs::rename(own + ".saved", own);
  // Restored, only the edit of SHA256SUMS's files remains to be told.
  for (const auto& code : validation_codes(bundle))
    EXPECT_EQ(code.rfind("counted.", 0), std::string::npos) << code;
}

// The processor's counter asked for by name: where the host has none (a VM without a virtual
// PMU, like this one), every counted run fails before it starts, saying why; where it has one,
// the runs count at full speed, phase by phase.
TEST(CountedRuns, the_processors_counter_asked_for_counts_or_fails_each_run_with_the_reason) {
  TempDir dir;
  RunInvocation inv;
  inv.matrix = "instructions.yaml";
  inv.name = "perf";
  inv.args = {"--counter-backend", "perf"};
  const auto r = run_jbench_run(dir, inv, unique_tag());
  ASSERT_FALSE(r.timed_out);
  const std::string bundle = dir.path() + "/out/perf";
  const json manifest = read_json(bundle + "/manifest.json");
  bool overridden = false;
  for (const auto& o : manifest["matrix"]["overrides"]) {
    overridden |= o["key"] == "collectors.counter.backend" && o["value"] == "perf";
  }
  EXPECT_TRUE(overridden) << manifest["matrix"]["overrides"];
  const bool hardware = r.exit_code == 0;
  if (!hardware) {
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("perf_event_open(instructions)"), std::string::npos) << r.err;
  }
  for (const auto& entry : manifest["runs"]) {
    if (entry["trace"] != "counted") continue;
    EXPECT_EQ(entry["status"], hardware ? "ok" : "failed") << entry;
    if (!hardware) continue;
    const json summary =
        read_json(bundle + "/runs/" + entry["id"].get<std::string>() + "/summary.json");
    const json& counted = summary["collectors"]["instructions"];
    EXPECT_EQ(counted["source"], "perf") << counted;
    EXPECT_GT(std::stoull(counted["measure_instructions"].get<std::string>()), 0u) << counted;
    EXPECT_EQ(counted["incarnations"][0]["phases"].size(), 4u) << counted;
  }
}

TEST(CountedRuns, without_valgrind_the_mode_is_not_available_and_nothing_is_counted) {
  TempDir dir;
  const std::string empty_bin = dir.path() + "/empty-bin";
  fs::create_directories(empty_bin);
  RunInvocation inv;
  inv.matrix = "instructions.yaml";
  inv.name = "none";
  inv.traced = true;
  inv.env = {{"PATH", empty_bin}};
  const auto r = run_jbench_run(dir, inv, unique_tag());
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // runs that did not succeed
  EXPECT_NE(r.err.find("no valgrind in PATH"), std::string::npos) << r.err;
  const std::string bundle = dir.path() + "/out/none";
  const json manifest = read_json(bundle + "/manifest.json");
  const json& mode = manifest["trace_modes"]["counted"];
  EXPECT_EQ(mode["status"], "not_available") << mode;
  EXPECT_NE(mode["reason"].get<std::string>().find("valgrind"), std::string::npos) << mode;
  EXPECT_FALSE(mode["remediation"].get<std::string>().empty()) << mode;
  std::size_t counted = 0;
  for (const auto& entry : manifest["runs"]) {
    const std::string id = entry["id"];
    const json summary = read_json(bundle + "/runs/" + id + "/summary.json");
    EXPECT_FALSE(summary.contains("collectors") && summary["collectors"].contains("instructions"))
        << id << ": a count without a counter";
    if (entry["trace"] != "counted") {
      EXPECT_EQ(entry["status"], "ok") << id;
      continue;
    }
    ++counted;
    EXPECT_EQ(entry["status"], "failed") << id;
  }
  EXPECT_EQ(counted, 2u);
}

}  // namespace
}  // namespace jbench::test
