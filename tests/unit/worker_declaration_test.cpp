// A process worker's `describe` line and the matrix checked against it: the declared table works
// as a built-in kind's (typed values, ranges, choices, defaults, located errors), and a line
// that declares nonsense is refused naming the field.
#include "jbench/matrix/worker_declaration.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "jbench/plan/plan.h"
#include "jbench/plan/plan_output.h"
#include "matrix_text.h"
#include "test_hosts.h"

namespace jbench {
namespace {

const char* const kDescribe =
    R"({"type":"describe","protocol":1,"worker":"toy-engine","meaning":"a toy","params":[)"
    R"({"name":"cache_kib","type":"integer","min":1,"max":4096,"default":64,"meaning":"cache"},)"
    R"({"name":"policy","type":"choice","choices":["lru","fifo"],"default":"lru","meaning":"p"},)"
    R"({"name":"skew","type":"number","min":0,"max":1,"meaning":"zipf skew; none by default"},)"
    R"({"name":"log_file","type":"file_name","meaning":"a log beside the data","future":1}]})";

std::shared_ptr<const WorkerDeclaration> declared(const std::string& line = kDescribe) {
  auto d = parse_worker_declaration(line);
  EXPECT_TRUE(d) << d.error().message;
  return d ? *d : nullptr;
}

// The test matrix as a process worker's, with `params` (a YAML flow mapping body).
Matrix process_matrix(const std::string& params) {
  std::string yaml = test::matrix_yaml();
  const std::string plain = "workload: {kind: sqlite}";
  yaml.replace(yaml.find(plain), plain.size(),
               "workload: {kind: process, command: [./toy, --fast], params: {" + params + "}}");
  auto loaded = parse_matrix(yaml, "dir/m.yaml");
  EXPECT_TRUE(loaded.matrix) << format_diagnostics(loaded.diagnostics);
  return loaded.matrix ? *loaded.matrix : Matrix{};
}

std::string declare_errors(const std::string& params) {
  Matrix m = process_matrix(params);
  return format_diagnostics(declare_workload(m, declared()));
}

std::string refusal(const std::string& line) {
  const auto d = parse_worker_declaration(line);
  EXPECT_FALSE(d) << line;
  return d ? "" : d.error().message;
}

TEST(WorkerDeclaration, decodes_the_command_and_leaves_params_until_declared) {
  const Matrix m = process_matrix("cache_kib: 128");
  EXPECT_EQ(m.workload.kind, "process");
  ASSERT_EQ(m.workload.command.size(), 2u);
  EXPECT_TRUE(m.workload.command[0].starts_with("/")) << m.workload.command[0];
  EXPECT_TRUE(m.workload.command[0].ends_with("/dir/toy")) << m.workload.command[0];
  EXPECT_EQ(m.workload.command[1], "--fast");
  EXPECT_TRUE(m.workload.params.empty());
  EXPECT_EQ(workload_kind_of(m.workload), nullptr);
}

TEST(WorkerDeclaration, the_declared_table_types_and_defaults_the_params) {
  Matrix m = process_matrix("cache_kib: 128, skew: 0.5");
  ASSERT_TRUE(declare_workload(m, declared()).empty());
  ASSERT_EQ(m.workload.params.size(), 4u);
  EXPECT_EQ(std::get<std::int64_t>(m.workload.params[0].value), 128);
  EXPECT_FALSE(m.workload.params[0].defaulted);
  EXPECT_EQ(std::get<std::string>(m.workload.params[1].value), "lru");
  EXPECT_TRUE(m.workload.params[1].defaulted);
  EXPECT_DOUBLE_EQ(std::get<double>(m.workload.params[2].value), 0.5);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(m.workload.params[3].value));
  ASSERT_NE(workload_kind_of(m.workload), nullptr);
  EXPECT_EQ(workload_kind_of(m.workload)->name, "toy-engine");
  // The plan keeps the command and the declaration as the worker printed it.
  const auto w =
      nlohmann::json::parse(plan_to_json(make_plan(m, {}, kSmallHost)))["matrix"]["workload"];
  EXPECT_EQ(w["kind"], "process");
  EXPECT_EQ(w["command"][1], "--fast");
  EXPECT_EQ(w["declaration"]["worker"], "toy-engine");
  EXPECT_EQ(w["params"]["cache_kib"], 128);
  EXPECT_EQ(w["params"]["policy"], "lru");
  EXPECT_FALSE(w["params"].contains("log_file"));
}

TEST(WorkerDeclaration, params_outside_the_declaration_are_located_errors) {
  const std::string unknown = declare_errors("cache_kb: 128");
  EXPECT_NE(unknown.find("dir/m.yaml:"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("workload.params.cache_kb"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("cache_kib"), std::string::npos) << unknown;  // the suggestion
  EXPECT_NE(declare_errors("cache_kib: 5000").find("out of range 1..4096"), std::string::npos);
  EXPECT_NE(declare_errors("policy: lifo").find("'lifo'"), std::string::npos);
  EXPECT_NE(declare_errors("skew: 2").find("workload.params.skew"), std::string::npos);
  EXPECT_NE(declare_errors("log_file: ../x").find("not a plain file name"), std::string::npos);
}

TEST(WorkerDeclaration, a_bundle_declares_again_from_its_plan) {
  Matrix m = process_matrix("cache_kib: 128");
  ASSERT_TRUE(declare_workload(m, declared()).empty());
  const auto plan = nlohmann::json::parse(plan_to_json(make_plan(m, {}, kSmallHost)));
  Matrix again = process_matrix("cache_kib: 128");
  const Status declared_again = declare_from_plan(again, plan);
  EXPECT_TRUE(declared_again) << declared_again.error().message;
  EXPECT_EQ(again.workload.params.size(), 4u);
  Matrix bare = process_matrix("");
  const Status undeclared = declare_from_plan(bare, nlohmann::json::object());
  ASSERT_FALSE(undeclared);
  EXPECT_NE(undeclared.error().message.find("no declaration"), std::string::npos);
}

TEST(WorkerDeclaration, a_wrong_declaration_is_refused_naming_the_field) {
  const std::string head = R"({"type":"describe","protocol":1,"worker":"w","params":[)";
  EXPECT_NE(refusal("not json").find("not a JSON object"), std::string::npos);
  EXPECT_NE(refusal(R"({"type":"hello"})").find("type"), std::string::npos);
  EXPECT_NE(
      refusal(R"({"type":"describe","protocol":2,"worker":"w","params":[]})").find("protocol"),
      std::string::npos);
  EXPECT_NE(refusal(R"({"type":"describe","protocol":1,"worker":"W!","params":[]})").find("worker"),
            std::string::npos);
  EXPECT_NE(refusal(head + R"({"name":"Bad","type":"integer"}]})").find("params[0].name"),
            std::string::npos);
  EXPECT_NE(refusal(head + R"({"name":"a","type":"text","meaning":"m"}]})").find("params[0].type"),
            std::string::npos);
  EXPECT_NE(refusal(head + R"({"name":"a","type":"integer","meaning":"m"}]})").find("min and max"),
            std::string::npos);
  EXPECT_NE(refusal(head + R"({"name":"a","type":"integer","min":-1,"max":3,"meaning":"m"}]})")
                .find("min and max"),
            std::string::npos);
  EXPECT_NE(
      refusal(head + R"({"name":"a","type":"integer","min":1,"max":3,"default":9,"meaning":"m"}]})")
          .find("params[0].default"),
      std::string::npos);
  EXPECT_NE(refusal(head + R"({"name":"a","type":"choice","choices":[],"meaning":"m"}]})")
                .find("params[0].choices"),
            std::string::npos);
  EXPECT_NE(refusal(head + R"({"name":"a","type":"file_name"}]})").find("params[0].meaning"),
            std::string::npos);
  EXPECT_NE(refusal(head + R"({"name":"page_cache_kib","type":"file_name","meaning":"m"}]})")
                .find("the dataset's"),
            std::string::npos);
  EXPECT_NE(refusal(head + R"({"name":"a","type":"file_name","meaning":"m"},)" +
                    R"({"name":"a","type":"file_name","meaning":"m"}]})")
                .find("declared twice"),
            std::string::npos);
}

TEST(WorkerDeclaration, traits_say_what_the_collectors_must_know_native_by_default) {
  EXPECT_FALSE(declared()->gc_events());
  EXPECT_FALSE(declared()->runtime_allocates());
  const std::string head = R"({"type":"describe","protocol":1,"worker":"w","params":[],)";
  const auto runtime = declared(head + R"("traits":{"gc_events":true,"allocations":"runtime"}})");
  ASSERT_TRUE(runtime);
  EXPECT_TRUE(runtime->gc_events());
  EXPECT_TRUE(runtime->runtime_allocates());
  EXPECT_NE(refusal(head + R"("traits":{"gc_events":"yes"}})").find("traits.gc_events"),
            std::string::npos);
  EXPECT_NE(refusal(head + R"("traits":{"allocations":"managed"}})").find("traits.allocations"),
            std::string::npos);
  EXPECT_NE(refusal(head + R"("traits":[]})").find("traits"), std::string::npos);
}

TEST(WorkerDeclaration, a_process_matrix_needs_a_command) {
  std::string yaml = test::matrix_yaml();
  const std::string plain = "workload: {kind: sqlite}";
  yaml.replace(yaml.find(plain), plain.size(), "workload: {kind: process, command: []}");
  const auto loaded = parse_matrix(yaml, "m.yaml");
  ASSERT_FALSE(loaded.matrix);
  EXPECT_NE(format_diagnostics(loaded.diagnostics).find("workload.command"), std::string::npos);
  yaml = test::matrix_yaml();
  yaml.replace(yaml.find(plain), plain.size(), "workload: {kind: process}");
  EXPECT_NE(format_diagnostics(parse_matrix(yaml, "m.yaml").diagnostics).find("command"),
            std::string::npos);
}

}  // namespace
}  // namespace jbench
