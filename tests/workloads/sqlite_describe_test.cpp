// `jbench-sqlite-worker describe`: the worker's own account of the parameters its configure
// takes. It must agree with the harness's table of the `sqlite` kind, parameter by parameter
// (a range the harness accepts and the worker refuses fails every run of a valid matrix), and
// say that it is a native program with no garbage collector.
#include <gtest/gtest.h>

#include "jbench/matrix/worker_declaration.h"
#include "run_process.h"
#include "worker_fixture.h"

namespace jbench::test {
namespace {

TEST(SqliteDescribe, agrees_with_the_harness_table_of_the_sqlite_kind) {
  const auto r = run_process({worker_binary(), "describe"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;  // exactly one line
  const auto said = parse_worker_declaration(r.out.substr(0, r.out.size() - 1));
  ASSERT_TRUE(said) << said.error().message << "\n" << r.out;
  const auto& declared = *said;
  EXPECT_EQ(declared->worker(), "sqlite");
  EXPECT_FALSE(declared->gc_events());
  EXPECT_FALSE(declared->runtime_allocates());
  const auto differences = parameter_differences(*find_workload_kind("sqlite"), declared->kind());
  EXPECT_TRUE(differences.empty()) << ::testing::PrintToString(differences);
}

TEST(SqliteDescribe, parameter_differences_names_what_differs) {
  const auto declared = parse_worker_declaration(
      R"({"type":"describe","protocol":1,"worker":"sqlite","params":[)"
      R"({"name":"synchronous","type":"choice","choices":["off","normal","full","extra"],)"
      R"("default":"full","meaning":"m"},)"
      R"({"name":"ops_per_transaction","type":"integer","min":1,"max":100,"default":10,)"
      R"("meaning":"m"}]})");
  ASSERT_TRUE(declared) << declared.error().message;
  const auto d = parameter_differences(*find_workload_kind("sqlite"), (*declared)->kind());
  const std::string all = ::testing::PrintToString(d);
  EXPECT_NE(all.find("synchronous: default normal expected, full declared"), std::string::npos)
      << all;
  EXPECT_NE(all.find("ops_per_transaction: range 1..100000 expected, 1..100 declared"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("busy_timeout_ms: not declared"), std::string::npos) << all;
}

}  // namespace
}  // namespace jbench::test
