// Seeded, bounded mutation fuzzing of `plan`: each checked-in matrix (matrices/*.yaml and
// tests/fixtures/bad-matrices/*.yaml) changed by one text mutation (truncated, a garbage line
// inserted, a line deleted or repeated, a digit changed), then parsed and planned in-process.
// The outcome must be clean: a matrix and a plan, or diagnostics that each point into the file
// and say what is wrong — never a crash, a hang or a diagnostic without a message.
//
// A failure prints the seed and iteration; JBENCH_FUZZ_SEED and JBENCH_FUZZ_ITERATIONS replay
// or extend a run.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz_mutator.h"
#include "jbench/matrix/load.h"
#include "jbench/plan/plan.h"
#include "jbench/plan/plan_output.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::pair<std::string, std::string>> matrices() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* dir : {"matrices", "tests/fixtures/bad-matrices"}) {
    for (const auto& e : fs::directory_iterator(std::string(JBENCH_SOURCE_DIR) + "/" + dir)) {
      if (e.path().extension() != ".yaml") continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      out.emplace_back(fs::relative(e.path(), JBENCH_SOURCE_DIR).string(), text.str());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The text mutations a matrix gets: those of fuzz_mutator.h, plus line and digit edits that
// keep most of the document valid YAML, so the checks behind the parser are reached too.
std::string mutate_matrix(const std::string& text, SplitMix64& rng, std::string& what) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const auto joined = [&] {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
  };
  switch (rng.below(5)) {
    case 0:
      what = "truncate";
      return mutate_text(text, FuzzOp::truncate, rng);
    case 1:
      what = "garbage_line";
      return mutate_text(text, FuzzOp::garbage_line, rng);
    case 2:
      if (lines.empty()) break;
      what = "delete_line";
      lines.erase(lines.begin() + static_cast<long>(rng.below(lines.size())));
      return joined();
    case 3:
      if (lines.empty()) break;
      what = "repeat_line";
      {
        const std::size_t k = rng.below(lines.size());
        lines.insert(lines.begin() + static_cast<long>(k), lines[k]);
      }
      return joined();
    default: {
      std::vector<std::size_t> digits;
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] >= '0' && text[i] <= '9') digits.push_back(i);
      }
      if (digits.empty()) break;
      what = "change_digit";
      std::string out = text;
      const std::size_t at = digits[rng.below(digits.size())];
      // Another digit, or a run of them: a value out of range is what a typo makes.
      out.replace(at, 1, rng.below(2) ? std::string(1, char('0' + rng.below(10))) : "99999");
      return out;
    }
  }
  what = "garbage_line";
  return mutate_text(text, FuzzOp::garbage_line, rng);
}

TEST(FuzzPlan, every_mutated_matrix_gives_a_plan_or_a_clean_error) {
  const std::uint64_t seed = env_or("JBENCH_FUZZ_SEED", 20261129);
  const std::uint64_t iterations = env_or("JBENCH_FUZZ_ITERATIONS", 4000);
  const auto inputs = matrices();
  ASSERT_GT(inputs.size(), 10u);
  const HostResources host{2, 24576};
  std::uint64_t planned = 0, refused = 0;
  // Bounded by its iterations; ctest's timeout is the safety net.
  for (std::uint64_t i = 0; i < iterations; ++i) {
    SplitMix64 rng(combine64(seed, i));
    const auto& [file, text] = inputs[rng.below(inputs.size())];
    std::string what;
    const std::string mutated = mutate_matrix(text, rng, what);
    const std::string repro = "JBENCH_FUZZ_SEED=" + std::to_string(seed) + " iteration " +
                              std::to_string(i) + ": " + what + " of " + file;
    const auto one = std::chrono::steady_clock::now();
    const LoadedMatrix loaded = parse_matrix(mutated, file);
    ASSERT_EQ(loaded.matrix.has_value(), loaded.diagnostics.empty()) << repro;
    if (loaded.matrix) {
      const Plan plan = make_plan(*loaded.matrix, {}, host);
      std::ostringstream json;
      write_plan_json(plan, json);
      EXPECT_FALSE(json.str().empty()) << repro;
      ++planned;
    } else {
      for (const auto& d : loaded.diagnostics) {
        EXPECT_EQ(d.where.file, file) << repro;
        EXPECT_FALSE(d.message.empty()) << repro << ": " << format_diagnostic(d);
      }
      ++refused;
    }
    EXPECT_LT(std::chrono::steady_clock::now() - one, std::chrono::seconds(2)) << "slow: " << repro;
  }
  // Both outcomes are reached, so both paths are exercised.
  EXPECT_GT(planned, 0u);
  EXPECT_GT(refused, 0u);
  std::printf("fuzz: seed %llu, %llu iterations, %llu planned, %llu refused\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(iterations),
              static_cast<unsigned long long>(planned), static_cast<unsigned long long>(refused));
}

}  // namespace
}  // namespace jbench::test
