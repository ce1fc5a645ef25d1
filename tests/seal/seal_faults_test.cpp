// The four commands that leave evidence — run, oracle, propose, merge — given the same planted
// write fault (JBENCH_FAULT_WRITE, docs/bundle.md) end the same way, as a user runs them:
// - a document of the command that cannot be written: the bundle is sealed as <name>.invalid,
//   its checksums whole, its validation.json naming the file, `jbench validate` calling it invalid;
// - validation.json itself: sealed <name>.invalid all the same, without it;
// - SHA256SUMS: nothing under the bundle's name, the staging directory left with everything else;
// and each exits 3 naming the file that was not written. Without a fault each leaves <name>, valid.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

#include "jbench/bundle/sha256sums.h"
#include "run_process.h"
#include "temp_dir.h"
#include "text_file.h"

namespace jbench::test {
namespace seal_faults {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kExamples = std::string(JBENCH_SOURCE_DIR) + "/docs/examples/worker/";

ProcessResult jbench(const std::vector<std::string>& args, const std::string& fault = "") {
  std::vector<std::string> argv = {JBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions o;
  o.timeout = std::chrono::seconds(120);  // a safety net: each command takes about a second
  if (!fault.empty()) o.env = {{"JBENCH_FAULT_WRITE", fault}};
  return run_process(argv, o);
}

// The example engine's one-cell matrix in `dir`, its worker this build's.
std::string example_matrix(const TempDir& dir) {
  return write_edited_copy(
      kExamples + "kv-one-cell.yaml", dir.path() + "/kv-one-cell.yaml",
      {{"../../../build/bin/jbench-example-kv-worker", JBENCH_EXAMPLE_WORKER}});
}

// The example proposal with both gates failing: rejected untimed, in a fraction of a second.
std::string rejected_proposal(const TempDir& dir) {
  example_matrix(dir);
  const std::string gate =
      "[../../../build/bin/jbench, check-worker, --, ../../../build/bin/jbench-example-kv-worker]";
  return write_edited_copy(kExamples + "fewer-rounds.yaml", dir.path() + "/p.yaml",
                           {{gate, "[/bin/false]"}});
}

// Two shards of the example matrix, made once, for every merge below.
class Shards {
 public:
  static const Shards& get() {
    static const Shards shards;
    return shards;
  }
  std::string first, second;

 private:
  Shards() {
    const std::string matrix = example_matrix(dir_);
    for (int k = 0; k < 2; ++k) {
      const std::string name = "s" + std::to_string(k);
      const auto r =
          jbench({"run", matrix, "--shard", std::to_string(k) + "/2", "--repetitions", "2",
                  "--only", "trace=baseline", "--out", dir_.path(), "--name", name});
      EXPECT_EQ(r.exit_code, 0) << r.err;
      (k == 0 ? first : second) = dir_.path() + "/" + name;
    }
  }
  TempDir dir_;
};

struct Command {
  std::string name;
  std::string document;  // a file of the bundle the command writes before its seal
  // The command line leaving bundle `b` in `out`, given a scratch folder for its inputs.
  std::function<std::vector<std::string>(const TempDir&, const std::string& out)> args;
};

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {"run", "plan.json",
       [](const TempDir& dir, const std::string& out) {
         return std::vector<std::string>{
             "run", example_matrix(dir), "--only", "trace=baseline", "--out", out, "--name", "b"};
       }},
      {"oracle", "oracle.json",
       [](const TempDir&, const std::string& out) {
         return std::vector<std::string>{
             "oracle", std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/oracle/corpus-only.yaml",
             "--out",  out,
             "--name", "b"};
       }},
      {"propose", "proposal.json",
       [](const TempDir& dir, const std::string& out) {
         return std::vector<std::string>{"propose", rejected_proposal(dir), "--out", out, "--name",
                                         "b"};
       }},
      {"merge", "plan.json",
       [](const TempDir&, const std::string& out) {
         const Shards& s = Shards::get();
         return std::vector<std::string>{"merge", out + "/b", s.first, s.second};
       }},
  };
  return all;
}

std::set<std::string> entries(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

enum class Fault { none, document, validation, sums };
void PrintTo(Fault f, std::ostream* os) {
  static const char* names[] = {"none", "a document", "validation.json", "SHA256SUMS"};
  *os << names[static_cast<int>(f)];
}

class SealFault : public ::testing::TestWithParam<std::tuple<std::size_t, Fault>> {};

TEST_P(SealFault, ends_the_same_way_in_every_command) {
  const Command& c = commands()[std::get<0>(GetParam())];
  const Fault fault = std::get<1>(GetParam());
  const std::string file = fault == Fault::document     ? c.document
                           : fault == Fault::validation ? "validation.json"
                           : fault == Fault::sums       ? "SHA256SUMS"
                                                        : "";
  TempDir dir;
  const std::string out = dir.path() + "/out";
  fs::create_directories(out);
  const ProcessResult r = jbench(c.args(dir, out), file);
  ASSERT_FALSE(r.timed_out) << c.name;
  const std::string said = r.out + r.err;
  if (fault == Fault::none) {
    EXPECT_EQ(entries(out), std::set<std::string>{"b"}) << said;
    EXPECT_EQ(jbench({"validate", out + "/b"}).exit_code, 0);
    return;
  }
  EXPECT_EQ(r.exit_code, 3) << said;
  EXPECT_NE(said.find("cannot write '" + file + "'"), std::string::npos) << said;
  EXPECT_NE(said.find("JBENCH_FAULT_WRITE"), std::string::npos) << said;
  if (fault == Fault::sums) {
    const auto left = entries(out);
    ASSERT_EQ(left.size(), 1u) << said;
    const std::string staging = out + "/" + *left.begin();
    EXPECT_EQ(left.begin()->rfind(".staging-b-", 0), 0u) << *left.begin();
    EXPECT_TRUE(fs::exists(staging + "/validation.json"));
    EXPECT_FALSE(fs::exists(staging + "/SHA256SUMS"));
    EXPECT_NE(said.find("is left in place"), std::string::npos) << said;
    return;
  }
  ASSERT_EQ(entries(out), std::set<std::string>{"b.invalid"}) << said;
  const std::string bundle = out + "/b.invalid";
  EXPECT_NE(said.find("not written: cannot write '" + file + "'"), std::string::npos) << said;
  EXPECT_TRUE(verify_sha256sums(bundle).empty());
  const ProcessResult checked = jbench({"validate", bundle});
  EXPECT_EQ(checked.exit_code, 1) << checked.out;
  if (fault == Fault::validation) {
    EXPECT_FALSE(fs::exists(bundle + "/validation.json"));
    EXPECT_NE(checked.out.find("validation.json"), std::string::npos) << checked.out;
    return;
  }
  EXPECT_FALSE(fs::exists(bundle + "/" + file));
  const json validation = json::parse(read_text(bundle + "/validation.json"), nullptr, false);
  EXPECT_FALSE(validation["valid"].get<bool>());
  ASSERT_FALSE(validation["write_failures"].empty()) << validation.dump(2);
  EXPECT_NE(validation["write_failures"][0].get<std::string>().find(file), std::string::npos);
}

std::string case_name(const ::testing::TestParamInfo<SealFault::ParamType>& info) {
  static const char* faults[] = {"no_fault", "document", "validation_json", "sha256sums"};
  return commands()[std::get<0>(info.param)].name + "_" +
         faults[static_cast<int>(std::get<1>(info.param))];
}

INSTANTIATE_TEST_SUITE_P(FourCommands, SealFault,
                         ::testing::Combine(::testing::Values(0u, 1u, 2u, 3u),
                                            ::testing::Values(Fault::none, Fault::document,
                                                              Fault::validation, Fault::sums)),
                         case_name);

}  // namespace seal_faults
}  // namespace jbench::test
