// `jbench slurm` and `jbench k8s` as a user types them: the scripts and the manifest written for
// the plan's shards, and every bad request refused with exit 2 before anything is written or
// submitted. The submission itself runs on a real Slurm in tests/slurm.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;

const std::string kMatrix = std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/merge/shards.yaml";

test::ProcessResult jbench(const std::vector<std::string>& args,
                           std::vector<std::pair<std::string, std::string>> env = {}) {
  std::vector<std::string> argv = {JBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  test::ProcessOptions o;
  o.env = std::move(env);
  return test::run_process(argv, o);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(SlurmCommand, writes_the_array_and_the_merge_for_the_plans_shards) {
  test::TempDir tmp;
  const auto r = jbench({"slurm", kMatrix, "--shards", "3", "--parallel", "2", "--out", tmp.path(),
                         "--name", "n1", "--only", "lane=writer"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string dir = tmp.path() + "/n1.slurm";
  EXPECT_EQ(r.out, dir + "\n");
  const std::string array = slurp(dir + "/array.sbatch");
  EXPECT_NE(array.find("#SBATCH --array=0-2%2\n"), std::string::npos) << array;
  EXPECT_NE(array.find("--shard \"$k/3\""), std::string::npos) << array;
  EXPECT_NE(array.find("--only lane=writer"), std::string::npos) << array;
  const std::string merge = slurp(dir + "/merge.sbatch");
  EXPECT_NE(merge.find("merge " + tmp.path() + "/n1 "), std::string::npos);
  // The merge's time limit is the one printed, by default the bound of the matrix's output.
  const auto said = r.err.find("merge.sbatch (--time ");
  ASSERT_NE(said, std::string::npos) << r.err;
  const std::string minutes = r.err.substr(said + 21, r.err.find(' ', said + 21) - said - 21);
  EXPECT_NE(merge.find("#SBATCH --time=" + minutes + "\n"), std::string::npos) << minutes << merge;
  EXPECT_TRUE(fs::is_directory(dir + "/logs"));
  // One line per shard: its runs and time, so that N can be chosen knowingly.
  EXPECT_NE(r.err.find("shard 2/3: "), std::string::npos) << r.err;
  const auto given = jbench({"slurm", kMatrix, "--shards", "2", "--out", tmp.path(), "--name", "n3",
                             "--merge-time", "7"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_NE(slurp(tmp.path() + "/n3.slurm/merge.sbatch").find("#SBATCH --time=7\n"),
            std::string::npos);
  // The same name again is refused: nothing is overwritten.
  const auto again =
      jbench({"slurm", kMatrix, "--shards", "3", "--out", tmp.path(), "--name", "n1"});
  EXPECT_EQ(again.exit_code, 2) << again.err;
}

TEST(SlurmCommand, refuses_what_cannot_be_run_before_writing_anything) {
  test::TempDir tmp;
  // 8 blocks: a ninth shard would have nothing to run.
  const auto too_many = jbench({"slurm", kMatrix, "--shards", "9", "--out", tmp.path()});
  EXPECT_EQ(too_many.exit_code, 2);
  EXPECT_NE(too_many.err.find("use at most --shards 8"), std::string::npos) << too_many.err;
  const auto wait_alone =
      jbench({"slurm", kMatrix, "--shards", "2", "--wait", "--out", tmp.path()});
  EXPECT_EQ(wait_alone.exit_code, 2) << wait_alone.err;
  const auto spaced = jbench({"slurm", kMatrix, "--shards", "2", "--out", tmp.path() + "/a b"});
  EXPECT_EQ(spaced.exit_code, 2);
  EXPECT_NE(spaced.err.find("#SBATCH"), std::string::npos) << spaced.err;
  const auto bad_matrix = jbench({"slurm", tmp.path() + "/none.yaml", "--shards", "2"});
  EXPECT_EQ(bad_matrix.exit_code, 2);
  // --submit where there is no Slurm: said so, exit 2.
  const auto no_sbatch =
      jbench({"slurm", kMatrix, "--shards", "2", "--out", tmp.path(), "--name", "n2", "--submit"},
             {{"PATH", tmp.path()}});
  EXPECT_EQ(no_sbatch.exit_code, 2) << no_sbatch.err;
  EXPECT_NE(no_sbatch.err.find("sbatch is not on PATH"), std::string::npos) << no_sbatch.err;
  EXPECT_FALSE(fs::exists(tmp.path() + "/a b"));
  EXPECT_FALSE(fs::exists(tmp.path() + "/n2.slurm"));
}

TEST(K8sCommand, writes_one_manifest_and_refuses_a_bad_name_or_an_existing_file) {
  test::TempDir tmp;
  const std::string file = tmp.path() + "/jobs.yaml";
  const auto r = jbench({"k8s", kMatrix, "--shards", "4", "--image", "reg/jbench:1", "--claim",
                         "bundles", "--name", "nightly", "-o", file});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = slurp(file);
  EXPECT_NE(text.find("name: \"nightly-shards\""), std::string::npos) << text;
  EXPECT_NE(text.find("completionMode: \"Indexed\""), std::string::npos);
  EXPECT_NE(text.find("name: \"nightly-merge\""), std::string::npos);
  EXPECT_NE(r.err.find("kubectl apply -f " + file), std::string::npos) << r.err;
  const auto exists = jbench({"k8s", kMatrix, "--shards", "4", "--image", "i", "--claim", "c",
                              "--name", "nightly", "-o", file});
  EXPECT_EQ(exists.exit_code, 2);
  const auto upper = jbench(
      {"k8s", kMatrix, "--shards", "4", "--image", "i", "--claim", "c", "--name", "Nightly_1"});
  EXPECT_EQ(upper.exit_code, 2);
  EXPECT_NE(upper.err.find("a Kubernetes name"), std::string::npos) << upper.err;
  const auto no_image = jbench({"k8s", kMatrix, "--shards", "4", "--claim", "c"});
  EXPECT_EQ(no_image.exit_code, 2);
  // Without --name, one is made from the matrix's: a valid DNS label.
  const auto named = jbench({"k8s", kMatrix, "--shards", "2", "--image", "i", "--claim", "c"});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_NE(named.out.find("name: \"shards-2"), std::string::npos) << named.out;
}

}  // namespace
}  // namespace jbench
