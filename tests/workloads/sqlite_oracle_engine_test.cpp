// `jbench-sqlite-worker oracle-engine`, the workload's subquery cache behind the oracle's line
// protocol, end to end through the built binaries: the engine answers a stale count only with
// the `connection` policy, and `jbench oracle` on the proposal's three oracle matrices
// (proposals/subquery-cache/) passes `off` and `transaction` and fails `connection`, naming
// oracle/corpus/workload_subquery.test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "run_process.h"
#include "temp_dir.h"
#include "worker_fixture.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

const std::string kProposal = JBENCH_SOURCE_DIR + "/proposals/subquery-cache";
const std::string kQuery =
    "SELECT count(*) FROM items WHERE grp = ?1 AND val > (SELECT avg(weight) FROM groups)";

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("'" + from + "' not in the matrix");
  return text.replace(at, from.size(), to);
}

// Protocol requests, one JSON line each; `statement` names a prepared statement when not empty.
std::string requests(const std::vector<std::tuple<std::string, std::string, std::string>>& runs) {
  std::string out;
  int id = 0;
  for (const auto& [sql, param, statement] : runs) {
    nlohmann::json r{
        {"op", "run"}, {"id", ++id}, {"sql", sql}, {"params", nlohmann::json::array()}};
    if (!param.empty()) r["params"].push_back(param);
    if (!statement.empty()) r["statement"] = statement;
    out += r.dump() + "\n";
  }
  return out;
}

// The count of every answer to kQuery, in order.
std::vector<std::string> counts(const std::string& out) {
  std::vector<std::string> found;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    if (j.contains("columns") && j["columns"] == nlohmann::json::array({"count(*)"})) {
      found.push_back(j["rows"][0][0].get<std::string>());
    }
  }
  return found;
}

ProcessResult engine(const std::string& policy, const std::string& input) {
  ProcessOptions options;
  options.stdin_text = input;
  options.timeout = std::chrono::seconds(20);
  return run_process({worker_binary(), "oracle-engine", "--subquery-cache", policy}, options);
}

TEST(SqliteOracleEngine, OnlyTheConnectionPolicyAnswersFromBeforeAWrite) {
  const std::string input = requests({
      {"CREATE TABLE groups(grp INTEGER PRIMARY KEY, weight INTEGER NOT NULL)", "", ""},
      {"CREATE TABLE items(id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, val INTEGER NOT NULL, "
       "payload BLOB NOT NULL)",
       "", ""},
      {"INSERT INTO groups VALUES (0, 10), (1, 30)", "", ""},  // avg 20
      {"INSERT INTO items VALUES (1, 0, 25, x''), (2, 1, 35, x'')", "", ""},
      {"BEGIN", "", ""},
      {kQuery, "0", "q"},                                       // 1 (25)
      {kQuery, "1", "q"},                                       // 1 (35), from the kept value
      {"UPDATE groups SET weight = 50 WHERE grp = 0", "", ""},  // avg 40
      {kQuery, "0", "q"},                                       // 0
      {kQuery, "1", ""},                                        // 0, run afresh
      {"COMMIT", "", ""},
  });
  const ProcessResult transaction = engine("transaction", input);
  ASSERT_EQ(transaction.exit_code, 0) << transaction.err;
  EXPECT_EQ(counts(transaction.out), (std::vector<std::string>{"1", "1", "0", "0"}));
  EXPECT_NE(transaction.err.find("subquery_cache=transaction: 2 hits, 2 fills"), std::string::npos)
      << transaction.err;

  const ProcessResult connection = engine("connection", input);
  ASSERT_EQ(connection.exit_code, 0) << connection.err;
  EXPECT_EQ(counts(connection.out), (std::vector<std::string>{"1", "1", "1", "1"}));

  const ProcessResult off = engine("off", input);
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_EQ(counts(off.out), (std::vector<std::string>{"1", "1", "0", "0"}));
  EXPECT_NE(off.err.find("0 hits, 0 fills"), std::string::npos) << off.err;
}

TEST(SqliteOracleEngine, RefusesAnUnknownPolicy) {
  const ProcessResult r = engine("sometimes", "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown --subquery-cache 'sometimes'"), std::string::npos) << r.err;
}

struct Pass {
  int exit_code = -1;
  nlohmann::json record;
  std::string output;
};

// `jbench oracle` on the proposal's matrix for `policy`, its engine and corpus paths made
// absolute so that it runs from any build directory.
Pass oracle_pass(const std::string& policy) {
  TempDir dir;
  std::string matrix = read(kProposal + "/oracle-" + policy + ".yaml");
  matrix = replaced(matrix, "../../build/bin/jbench-sqlite-worker", worker_binary());
  matrix = replaced(matrix, "../../oracle/corpus", JBENCH_SOURCE_DIR + "/oracle/corpus");
  const std::string path = dir.write("oracle-" + policy + ".yaml", matrix);
  ProcessOptions options;
  options.timeout = std::chrono::seconds(60);
  const ProcessResult r =
      run_process({JBENCH_BINARY, "oracle", path, "--out", dir.path() + "/out"}, options);
  Pass p;
  p.exit_code = r.exit_code;
  p.output = r.out + r.err;
  std::smatch m;
  if (std::regex_search(p.output, m, std::regex("bundle: (\\S+)"))) {
    p.record = nlohmann::json::parse(read(m[1].str() + "/oracle.json"));
  }
  return p;
}

TEST(SqliteOracleEngine, TheOffAndTransactionMatricesPass) {
  for (const char* policy : {"off", "transaction"}) {
    const Pass p = oracle_pass(policy);
    EXPECT_EQ(p.exit_code, 0) << policy << "\n" << p.output;
    EXPECT_EQ(p.record["passed"], true) << policy;
    EXPECT_EQ(p.record["sections"]["generator"]["status"], "passed") << policy;
  }
}

TEST(SqliteOracleEngine, TheConnectionMatrixFailsOnTheWorkloadCorpusFile) {
  const Pass p = oracle_pass("connection");
  EXPECT_EQ(p.exit_code, 1) << p.output;
  ASSERT_TRUE(p.record.is_object()) << p.output;
  EXPECT_EQ(p.record["passed"], false);
  std::vector<std::string> failed;
  for (const auto& file : p.record["sections"]["corpus"]["files"]) {
    if (file["status"] != "passed")
      failed.push_back(fs::path(file["file"].get<std::string>()).filename());
  }
  EXPECT_EQ(failed, std::vector<std::string>{"workload_subquery.test"});
  const auto& files = p.record["sections"]["corpus"]["files"];
  for (const auto& file : files) {
    if (fs::path(file["file"].get<std::string>()).filename() != "workload_subquery.test") continue;
    ASSERT_FALSE(file["divergences"].empty());
    EXPECT_EQ(file["divergences"][0]["sql"], kQuery);
  }
}

}  // namespace
}  // namespace jbench::test
