// A proposal on an engine jbench has never seen (docs/examples/worker/fewer-rounds.yaml): the
// example worker is named by its command, each side is gated by a command of the project's own
// instead of the SQL oracle, and the verdict rests on the engine's own jb_counter. The pages'
// files are copied with their build paths pointed at this build.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "bundle_sums.h"
#include "run_support.h"
#include "text_file.h"

namespace jbench::test {
namespace example_proposal {

namespace fs = std::filesystem;
using nlohmann::json;

std::string page_file(const std::string& name) {
  return std::string(JBENCH_SOURCE_DIR) + "/docs/examples/worker/" + name;
}

// The page's proposal and matrix in `dir`, the build's binaries named absolutely, then `edits`
// made to the proposal. Returns the proposal's path.
std::string copy_proposal(const TempDir& dir, const TextEdits& edits = {}) {
  const TextEdits pointed = {
      {"../../../build/bin/jbench-example-kv-worker", JBENCH_EXAMPLE_WORKER}};
  write_edited_copy(page_file("kv-one-cell.yaml"), dir.path() + "/kv-one-cell.yaml", pointed);
  TextEdits all = pointed;
  all.emplace_back("../../../build/bin/jbench", JBENCH_BINARY);
  all.insert(all.end(), edits.begin(), edits.end());
  return write_edited_copy(page_file("fewer-rounds.yaml"), dir.path() + "/fewer-rounds.yaml", all);
}

ProcessResult propose(const TempDir& dir, const std::string& proposal) {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(300);  // a safety net: the proposal takes seconds
  return run_process(
      {JBENCH_BINARY, "propose", proposal, "--out", dir.path() + "/out", "--name", "p"}, options);
}

TEST(ExampleProposal, the_engines_own_counter_decides_a_proposal_gated_by_its_own_command) {
  TempDir dir;
  // The candidate is another build, named by its command: a copy of the worker.
  const std::string copy = dir.path() + "/kv-worker-candidate";
  fs::copy_file(JBENCH_EXAMPLE_WORKER, copy);
  const std::string proposal =
      copy_proposal(dir, {{"  params: {work_rounds: 64}\n",
                           "  params: {work_rounds: 64}\n  command: [./kv-worker-candidate]\n"}});
  const ProcessResult r = propose(dir, proposal);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: accepted"), std::string::npos) << r.out;
  const std::string bundle = dir.path() + "/out/p";
  expect_valid_bundle(bundle);

  const json record = read_json(bundle + "/proposal.json");
  EXPECT_EQ(record["verdict"], "accepted") << record.dump(2);
  EXPECT_EQ(record["sides"]["candidate"]["command"], json::array({copy})) << record.dump(2);
  EXPECT_TRUE(record["sides"]["baseline"]["command"].is_null());
  for (const char* side : {"baseline", "candidate"}) {
    // The gate's program is named by its content: here jbench itself.
    const json& named = record["sides"][side]["gate_sha256"];
    ASSERT_TRUE(named.is_string()) << record["sides"].dump();
    EXPECT_EQ(named.get<std::string>().size(), 64u);
    const json& gate = record["oracle"][side];
    EXPECT_TRUE(gate["passed"].get<bool>()) << gate.dump();
    EXPECT_EQ(gate["exit"], "exit 0");
    // The gate's own output is kept: here, check-worker's verdict on the worker.
    const std::string text = read_text(bundle + "/" + gate["log"].get<std::string>());
    EXPECT_NE(text.find("11 of 11 rules hold"), std::string::npos) << text;
  }
  // Every candidate session ran the copy, every baseline session the build's worker.
  for (const auto& s : record["sessions"]) {
    const json plan = read_json(bundle + "/" + s["bundle"].get<std::string>() + "/plan.json");
    const std::string ran = plan["matrix"]["workload"]["command"][0];
    EXPECT_EQ(ran, s["side"] == "candidate" ? copy : std::string(JBENCH_EXAMPLE_WORKER));
  }
  // The counter it rests on: 64 rounds an operation against 2048, exactly, in the full cell.
  const json comparison = read_json(bundle + "/comparison.json");
  std::size_t rows = 0;
  for (const auto& row : comparison["rows"]) {
    if (row["metric"] != "counter:mix_rounds_per_op") continue;
    ++rows;
    EXPECT_DOUBLE_EQ(row["base_median"].get<double>(), 2048.0) << row.dump();
    EXPECT_DOUBLE_EQ(row["candidate_median"].get<double>(), 64.0) << row.dump();
  }
  EXPECT_EQ(rows, 1u) << comparison.dump();

  // A gate log edited to say the command failed, the sums made to agree: the record and the log
  // no longer say the same.
  const std::string log = bundle + "/logs/gate-candidate.log";
  write_edited_copy(log, log, {{"--- exit 0\n", "--- exit 1\n"}});
  rewrite_sums(bundle);
  const ProcessResult checked = run_process({JBENCH_BINARY, "validate", bundle});
  EXPECT_EQ(checked.exit_code, 1) << checked.out;
  EXPECT_NE(checked.out.find("proposal.gate_mismatch"), std::string::npos) << checked.out;
}

TEST(ExampleProposal, a_candidate_whose_gate_fails_is_rejected_untimed_with_what_it_printed) {
  TempDir dir;
  const std::string fails = dir.path() + "/fails.sh";
  std::ofstream(fails) << "#!/bin/sh\necho 'test_get_after_put: expected 7, got 8' >&2\nexit 3\n";
  fs::permissions(fails, fs::perms::owner_all);
  const std::string gate =
      "[" + std::string(JBENCH_BINARY) + ", check-worker, --, " + JBENCH_EXAMPLE_WORKER + "]";
  const std::string proposal = copy_proposal(dir);
  // The candidate's gate only: the baseline's stays check-worker.
  std::string text = read_text(proposal);
  const auto at = text.find(gate, text.find("candidate:"));
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, gate.size(), "[./fails.sh]");
  std::ofstream(proposal, std::ios::trunc) << text;

  const ProcessResult r = propose(dir, proposal);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const std::string bundle = dir.path() + "/out/p";
  expect_valid_bundle(bundle);
  const json record = read_json(bundle + "/proposal.json");
  EXPECT_EQ(record["verdict"], "rejected");
  EXPECT_EQ(record["oracle"]["candidate"]["exit"], "exit 3") << record.dump(2);
  EXPECT_FALSE(record["oracle"]["baseline"]["ran"].get<bool>());
  EXPECT_TRUE(record["sessions"].empty()) << record.dump(2);
  const std::string reason = record["decision"]["reasons"][0];
  EXPECT_NE(reason.find("the candidate fails its gate command"), std::string::npos) << reason;
  const std::string kept = read_text(bundle + "/logs/gate-candidate.log");
  EXPECT_NE(kept.find("expected 7, got 8"), std::string::npos) << kept;
}

TEST(ExampleProposal, a_build_named_the_wrong_way_for_its_workload_is_refused_where_it_is_written) {
  TempDir dir;
  // A process worker's build is its command, not a folder of jbench-<kind>-worker.
  const std::string proposal =
      copy_proposal(dir, {{"  params: {work_rounds: 64}\n",
                           "  params: {work_rounds: 64}\n  worker_dir: " + dir.path() + "\n"}});
  const ProcessResult r = propose(dir, proposal);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("fewer-rounds.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("candidate.worker_dir"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("name this side's build by its 'command'"), std::string::npos) << r.err;
  // A parameter the candidate's build does not declare is named as a matrix's would be.
  const std::string unknown =
      copy_proposal(dir, {{"params: {work_rounds: 64}", "params: {work_round: 64}"}});
  const ProcessResult u = propose(dir, unknown);
  EXPECT_EQ(u.exit_code, 2) << u.out << u.err;
  EXPECT_NE(u.err.find("candidate.params.work_round"), std::string::npos) << u.err;
  EXPECT_FALSE(fs::exists(dir.path() + "/out/p"));
}

}  // namespace example_proposal
}  // namespace jbench::test
