// The SQLite kind's plant_fsync_file parameter: the one workload parameter whose default is none.
// Left out, it has no value, is listed as defaulted and is absent from the plan's params; given,
// it must be a plain file name, refused otherwise at its key path.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "jbench/plan/plan.h"
#include "jbench/plan/plan_output.h"
#include "matrix_text.h"
#include "test_hosts.h"

namespace jbench {
namespace {

constexpr std::string_view kKey = "workload.params.plant_fsync_file";

// The test matrix with `params` as its sqlite workload's parameters (a YAML flow mapping body).
std::string with_params(const std::string& params) {
  std::string yaml = test::matrix_yaml();
  const std::string plain = "workload: {kind: sqlite}";
  return yaml.replace(yaml.find(plain), plain.size(),
                      "workload: {kind: sqlite, params: {" + params + "}}");
}

const Param& plant_param(const Matrix& m) {
  for (const auto& p : m.workload.params) {
    if (p.key == "plant_fsync_file") return p;
  }
  ADD_FAILURE() << "no plant_fsync_file parameter";
  static const Param kNone;
  return kNone;
}

nlohmann::json plan_workload(const Matrix& m) {
  return nlohmann::json::parse(plan_to_json(make_plan(m, {}, kSmallHost)))["matrix"]["workload"];
}

TEST(MatrixPlantParam, left_out_it_is_none_defaulted_and_absent_from_the_plan_params) {
  const Matrix m = test::must_parse(test::matrix_yaml());
  const Param& p = plant_param(m);
  EXPECT_TRUE(p.defaulted);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(p.value));
  const auto w = plan_workload(m);
  EXPECT_FALSE(w["params"].contains("plant_fsync_file")) << w.dump();
  const auto& d = w["defaulted"];
  EXPECT_NE(std::find(d.begin(), d.end(), "plant_fsync_file"), d.end()) << w.dump();
}

TEST(MatrixPlantParam, given_it_is_a_value_of_the_plan) {
  const Matrix m = test::must_parse(with_params("plant_fsync_file: plant.log"));
  const Param& p = plant_param(m);
  EXPECT_FALSE(p.defaulted);
  EXPECT_EQ(std::get<std::string>(p.value), "plant.log");
  const auto w = plan_workload(m);
  EXPECT_EQ(w["params"]["plant_fsync_file"], "plant.log");
  const auto& d = w["defaulted"];
  EXPECT_EQ(std::find(d.begin(), d.end(), "plant_fsync_file"), d.end()) << w.dump();
  // The longest name the rule allows, and every kind of character it allows.
  test::must_parse(with_params("plant_fsync_file: " + std::string(100, 'x')));
  test::must_parse(with_params("plant_fsync_file: A-z_0.9"));
}

TEST(MatrixPlantParam, refuses_a_name_that_is_not_a_plain_file_name_at_its_key_path) {
  const std::vector<std::string> bad = {"a/b",   "..",   ".",          "''", std::string(101, 'x'),
                                        "'a b'", "/abs", "[plant.log]"};
  for (const auto& value : bad) {
    const auto loaded = parse_matrix(with_params("plant_fsync_file: " + value), "t.yaml");
    EXPECT_FALSE(loaded.matrix) << value;
    ASSERT_EQ(loaded.diagnostics.size(), 1u) << value;
    EXPECT_EQ(loaded.diagnostics[0].key_path, kKey) << value;
    EXPECT_GT(loaded.diagnostics[0].where.line, 0u) << value;  // points into the file
  }
  const auto slash = parse_matrix(with_params("plant_fsync_file: a/b"), "t.yaml");
  EXPECT_NE(slash.diagnostics.at(0).message.find("not a plain file name: 'a/b' contains '/'"),
            std::string::npos)
      << slash.diagnostics.at(0).message;
}

TEST(MatrixPlantParam, the_chez_kind_has_no_plant) {
  std::string yaml = test::matrix_yaml(
      "axes:\n  workers: [1]\n  connection: [persistent]\n  lane: [writer]\n"
      "  dataset: [{name: d, rows: 1, row_bytes: 1, page_cache_kib: 1}]\n");
  const std::string plain = "workload: {kind: sqlite}";
  yaml.replace(yaml.find(plain), plain.size(),
               "workload: {kind: chez, params: {plant_fsync_file: plant.log}}");
  const auto loaded = parse_matrix(yaml, "t.yaml");
  EXPECT_FALSE(loaded.matrix);
  ASSERT_FALSE(loaded.diagnostics.empty());
  EXPECT_EQ(loaded.diagnostics[0].key_path, kKey);
}

}  // namespace
}  // namespace jbench
