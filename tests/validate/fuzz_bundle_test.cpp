// Seeded, bounded mutation fuzzing of the validator: one document of the checked-in valid bundle
// changed (a member removed or renamed, a type or a number changed, the text truncated, a
// garbage line inserted), SHA256SUMS recomputed, validate_bundle run in-process. It must never
// crash or hang, and must reject every mutation of a field the bundle's schemas or
// recomputations cover. Which those are is written down below (must_reject); everything else
// is still mutated and must still be survived.
//
// A failure prints the seed and iteration; JBENCH_FUZZ_SEED and JBENCH_FUZZ_ITERATIONS replay
// or extend a run (e.g. JBENCH_FUZZ_SEED=7 JBENCH_FUZZ_ITERATIONS=5000).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include "bundle_editor.h"
#include "fuzz_mutator.h"
#include "jbench/validate/validate.h"
#include "temp_dir.h"
#include "validate_test_support.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// What was changed, in words the exemption rules below match on.
struct Applied {
  std::string file;  // relative to the bundle
  FuzzOp op;
  std::string message;  // transcript: the type of the message changed ("" for the entry itself)
  std::string where;    // JSON pointer of the change ("" for a text mutation)
};

bool matches(const std::string& text, const char* pattern) {
  return std::regex_search(text, std::regex(pattern));
}

// Whether the validator must reject the mutation. Each `return false` is an exemption: a field
// no schema closes and no recomputation reads. They are few on purpose.
bool must_reject(const Applied& m) {
  const std::string& f = m.file;
  const std::string& p = m.where;
  // Free text, kept for people: nothing is derived from it (SHA256SUMS, recomputed here, is
  // what guards it).
  if (matches(f, R"(^logs/session\.log$|\.stderr$)")) return false;
  // Truncated or garbled: no JSON document or transcript survives that, and matrix.yaml has its
  // sha256 in the manifest.
  if (m.op == FuzzOp::truncate || m.op == FuzzOp::garbage_line) return true;
  // Recomputed whole from raw/ and run.json: any change at all is a mismatch.
  if (matches(f, R"(/summary\.json$)")) return true;
  // The result message as the worker sent it, which the transcript holds too.
  if (matches(f, R"(/raw/worker-\d+\.result\.json$)")) return true;
  if (matches(f, R"(/raw/cpu\.readings\.json$)")) {
    // Closed schema: no member may go missing, be renamed or change type.
    if (m.op != FuzzOp::change_number) return true;
    // The reading at registration proves attachment; no phase is computed from it. A thread
    // count is recorded, not summarized.
    if (matches(p, R"(^/incarnations/\d+/readings/0/|/threads$)")) return false;
    // The fixture's tick counts are all 0, so the tick rate converts nothing here.
    if (p == "/clock_ticks_per_second") return false;
    return true;
  }
  if (matches(f, R"(/logs/protocol\.jsonl$)")) {
    // The entry itself (t_ns, worker, dir, line) is closed; a time moved by half of itself
    // leaves the run, a worker index beyond the run's is unknown.
    if (m.message.empty() || m.message == "result") return true;
    // Maps with free keys: the workload's parameters (but page_cache_kib, the dataset cell's),
    // the warmup phase's counts by operation type and error name.
    const bool free_key = matches(p, R"(^/params/(?!page_cache_kib$))") ||
                          matches(p, R"(^/(operations_by_type|errors)/)");
    if (m.op == FuzzOp::rename_key || m.op == FuzzOp::remove_field) {
      if (free_key) return false;
      // Fields only one kind of worker sends, or that protocol 1 gained later (hello.bridge,
      // ready.statements), are optional in the schema.
      if (m.op == FuzzOp::remove_field && (m.message == "hello" || m.message == "ready") &&
          matches(p, R"(^/(bridge|statements)$)")) {
        return false;
      }
      if (m.op == FuzzOp::remove_field &&
          matches(
              p,
              R"(^/(rows_returned|transactions_failed|transactions_abandoned|busy_waits|busy_wait_ns)$)")) {
        return false;
      }
      return true;
    }
    if (m.op == FuzzOp::change_type) return !free_key;  // a parameter may be any scalar
    // change_number: the fields run.json copies, the identity the cohort registered, the
    // configuration the run's cell fixes, and every time a worker stamps (moved by half of
    // itself it is later than the harness read it). The warmup phase's counts, setup_ns and
    // the workload's parameters are read by nothing.
    return matches(
               p,
               R"(^/(t_ns|pid|protocol|open_ns|t_start_ns|t_end_ns|teardown_ns|worker_index)$)") ||
           matches(p, R"(^/(seed|phases/|params/page_cache_kib$))");
  }
  // run.json's per-worker times are copied from the messages the transcript holds.
  if (matches(f, R"(/run\.json$)") &&
      matches(
          p,
          R"(^/workers/\d+/(hello_t_ns|ready_t_ns|open_ns|canary_t_ns|warmup_done_t_ns|measure_start_ns|measure_end_ns|teardown_ns)$)")) {
    return true;
  }
  // The rest (manifest, plan, capabilities, provenance, validation.json, the rest of run.json)
  // is held to its schema only as far as that schema goes: it must be survived.
  return false;
}

// Applies one mutation to a copy of the valid bundle; nullopt when the op fits nothing there.
std::optional<Applied> apply(const BundleEditor& e, const std::string& file, FuzzOp op,
                             SplitMix64& rng) {
  Applied m{file, op, "", ""};
  const std::string text = e.text(file);
  const bool transcript = file.ends_with("/logs/protocol.jsonl");
  if (op == FuzzOp::truncate || op == FuzzOp::garbage_line ||
      !(file.ends_with(".json") || transcript)) {
    if (op != FuzzOp::truncate && op != FuzzOp::garbage_line) return std::nullopt;
    e.write_text(file, mutate_text(text, op, rng));
    return m;
  }
  if (!transcript) {
    auto j = mutate_json(e.json(file), op, rng);
    if (!j) return std::nullopt;
    m.where = j->where;
    e.write_json(file, j->doc);
    return m;
  }
  // One line of the transcript: the entry, or the message it carries.
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const std::size_t k = rng.below(lines.size());
  Json entry = Json::parse(lines[k]);
  if (rng.below(2) == 0) {
    auto j = mutate_json(entry, op, rng);
    if (!j) return std::nullopt;
    m.where = j->where;
    lines[k] = j->doc.dump();
  } else {
    const Json message = Json::parse(entry["line"].get<std::string>());
    auto j = mutate_json(message, op, rng);
    if (!j) return std::nullopt;
    m.message = message.value("type", "");
    m.where = j->where;
    entry["line"] = j->doc.dump();
    lines[k] = entry.dump();
  }
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  e.write_text(file, out);
  return m;
}

std::vector<std::string> fixture_files() {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(valid_fixture())) {
    if (!entry.is_regular_file()) continue;
    const std::string rel = fs::relative(entry.path(), valid_fixture()).string();
    if (rel != "SHA256SUMS") files.push_back(rel);  // recomputed after every mutation
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FuzzValidate, no_mutation_of_a_checked_field_is_accepted) {
  const std::uint64_t seed = env_or("JBENCH_FUZZ_SEED", 20261129);
  const std::uint64_t iterations = env_or("JBENCH_FUZZ_ITERATIONS", 600);
  const auto files = fixture_files();
  ASSERT_FALSE(files.empty());
  TempDir dir;
  std::uint64_t applied = 0, rejected = 0;
  // Bounded by its iterations (ctest's timeout is the safety net): a bound on the whole run's
  // time failed on a loaded host at iteration 599 of 600.
  for (std::uint64_t i = 0; i < iterations; ++i) {
    SplitMix64 rng(combine64(seed, i));
    const std::string file = files[rng.below(files.size())];
    const FuzzOp op = kFuzzOps[rng.below(std::size(kFuzzOps))];
    const std::string bundle = dir.path() + "/b" + std::to_string(i);
    fs::copy(valid_fixture(), bundle, fs::copy_options::recursive);
    const BundleEditor editor(bundle);
    const auto m = apply(editor, file, op, rng);
    if (m) {
      editor.rewrite_sums();
      const auto one = std::chrono::steady_clock::now();
      const ValidationReport report = validate_bundle(bundle);
      const auto took = std::chrono::steady_clock::now() - one;
      const std::string repro = "JBENCH_FUZZ_SEED=" + std::to_string(seed) + " iteration " +
                                std::to_string(i) + ": " + op_name(op) + " " + file +
                                (m->message.empty() ? "" : " message " + m->message) + " at '" +
                                m->where + "'";
      ++applied;
      rejected += report.valid() ? 0 : 1;
      EXPECT_FALSE(report.unreadable) << repro;
      EXPECT_LT(took, std::chrono::seconds(5)) << "slow: " << repro;
      if (must_reject(*m)) {
        EXPECT_FALSE(report.valid()) << "accepted: " << repro;
      }
      for (const auto& f : report.findings) {
        EXPECT_NE(f.code, "validate.check_aborted") << repro << ": " << f.message;
      }
    }
    fs::remove_all(bundle);
  }
  // A fuzzer that applies nothing, or whose mutations all pass, tests nothing.
  EXPECT_GT(applied, iterations / 2);
  EXPECT_GT(rejected, applied / 2);
  std::printf("fuzz: seed %llu, %llu iterations, %llu applied, %llu rejected\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(iterations),
              static_cast<unsigned long long>(applied), static_cast<unsigned long long>(rejected));
}

}  // namespace
}  // namespace jbench::test
