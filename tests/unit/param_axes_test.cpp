// Parameters as axes: a workload parameter named under `axes:` is swept like a built-in axis —
// its values checked against the kind's table with located errors, its cells planned, excluded,
// filtered, seeded and named like any other, and each run sent its own value. A process worker's
// parameter axes are checked once it has declared its parameters.
#include <gtest/gtest.h>

#include <set>

#include "jbench/matrix/param_override.h"
#include "jbench/matrix/worker_declaration.h"
#include "jbench/plan/plan.h"
#include "matrix_text.h"
#include "test_hosts.h"

namespace jbench::param_axes_test {
namespace {

const std::string kBaseAxes = R"(axes:
  workers: [1, 2]
  connection: [cold]
  lane: [writer, mixed]
  dataset:
    - {name: small, rows: 100, row_bytes: 10, page_cache_kib: 1024}
  trace: [baseline, light]
)";

std::string with_axes(const std::string& more, const std::string& extra = "") {
  return test::matrix_yaml(kBaseAxes + more, extra);
}

std::vector<Diagnostic> errors_of(const std::string& yaml) {
  auto loaded = parse_matrix(yaml, "t.yaml");
  EXPECT_FALSE(loaded.matrix.has_value());
  return loaded.diagnostics;
}

// The diagnostic at `path`, or an empty one.
Diagnostic error_at(const std::vector<Diagnostic>& ds, const std::string& path) {
  for (const auto& d : ds) {
    if (d.key_path == path) return d;
  }
  ADD_FAILURE() << "no error at " << path << ":\n" << format_diagnostics(ds);
  return {};
}

TEST(ParamAxes, a_parameter_under_axes_is_an_axis_with_typed_values) {
  const Matrix m = test::must_parse(with_axes(
      "  ops_per_transaction: [1, 010, 100]\n  synchronous: [off, full]\n  read_ratio: [0.25, "
      "0.5]\n"));
  const auto ops = m.find_axis("ops_per_transaction");
  ASSERT_TRUE(ops);
  EXPECT_TRUE(is_param_axis(*ops));
  EXPECT_EQ(m.axis_name(*ops), "ops_per_transaction");
  EXPECT_EQ(m.axis(*ops).labels, (std::vector<std::string>{"1", "10", "100"}));
  EXPECT_EQ(m.axis(*ops).values[1], ParamValue(std::int64_t{10}));
  // The order of `axes:` is the order of the slots.
  EXPECT_EQ(*m.find_axis("synchronous"), Axis::param2);
  EXPECT_EQ(m.axis(Axis::param3).values[0], ParamValue(0.25));
  // A swept parameter has no single value: it is not among the workload's params.
  for (const auto& p : m.workload.params) {
    EXPECT_NE(p.key, "ops_per_transaction");
    EXPECT_NE(p.key, "synchronous");
  }
}

TEST(ParamAxes, bad_parameter_axes_are_located_errors) {
  const auto ds = errors_of(
      with_axes("  ops_per_transaction: [1, 0, 1]\n  synchronus: [off]\n  synchronous: []\n"));
  const auto range = error_at(ds, "axes.ops_per_transaction[1]");
  EXPECT_EQ(range.where.line, 15u);
  EXPECT_NE(range.message.find("out of range"), std::string::npos) << range.message;
  EXPECT_NE(error_at(ds, "axes.ops_per_transaction[2]").message.find("duplicate value '1'"),
            std::string::npos);
  EXPECT_NE(error_at(ds, "axes.synchronus").message.find("did you mean 'synchronous'"),
            std::string::npos);
  EXPECT_NE(error_at(ds, "axes.synchronous").message.find("at least one value"), std::string::npos);

  std::string both = with_axes("  busy_timeout_ms: [10, 20]\n");
  both.replace(both.find("workload: {kind: sqlite}"), 24,
               "workload: {kind: sqlite, params: {busy_timeout_ms: 5}}");
  EXPECT_NE(error_at(errors_of(both), "workload.params.busy_timeout_ms")
                .message.find("is an axis of this matrix"),
            std::string::npos);

  const auto five = errors_of(
      with_axes("  ops_per_transaction: [1]\n  synchronous: [off]\n  busy_timeout_ms: [1]\n"
                "  read_ratio: [0.5]\n  plant_delay_ns: [0]\n"));
  EXPECT_NE(error_at(five, "axes.plant_delay_ns").message.find("at most 4"), std::string::npos);

  // The mixed lane needs reads and writes: every value of a read_ratio axis is checked.
  const auto ratio = errors_of(with_axes("  read_ratio: [0.5, 1]\n"));
  EXPECT_NE(error_at(ratio, "axes.read_ratio[1]").message.find("strictly between 0 and 1"),
            std::string::npos);
}

TEST(ParamAxes, cells_ids_excludes_and_filters_cover_parameter_axes) {
  const Matrix m = test::must_parse(with_axes(
      "  ops_per_transaction: [1, 10]\n", "exclude:\n  - {ops_per_transaction: 10, workers: 2}\n"));
  const Plan plan = make_plan(m, {}, kWideHost);
  // 2 workers x 2 lanes x 2 modes x 2 ops, less the 2 x 2 cells of (w2, ops 10).
  EXPECT_EQ(plan.counts.product, 16u);
  EXPECT_EQ(plan.counts.cells, 12u);
  std::set<std::string> ids;
  for (const auto& run : plan.runs) ids.insert(run_id(plan, run));
  EXPECT_TRUE(ids.contains("w1.cold.writer.small.ops_per_transaction=10.light.r1"));
  EXPECT_FALSE(ids.contains("w2.cold.writer.small.ops_per_transaction=10.light.r1"));
  EXPECT_EQ(ids.size(), plan.runs.size());

  const std::vector<std::string> only = {"ops_per_transaction=1"};
  const auto filters = parse_only_filters(only, m);
  ASSERT_TRUE(filters.errors.empty()) << filters.errors.front();
  const Plan filtered = make_plan(m, filters.filters, kWideHost);
  for (const auto& run : filtered.runs) {
    EXPECT_NE(run_id(filtered, run).find("ops_per_transaction=1."), std::string::npos);
  }
  const std::vector<std::string> typo = {"ops_per_transactio=1"};
  const auto bad = parse_only_filters(typo, m);
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_NE(bad.errors[0].find("did you mean 'ops_per_transaction'"), std::string::npos);
}

TEST(ParamAxes, an_exclude_rule_reads_a_value_as_its_parameter_does) {
  // 0.50 is the label 0.5 and 010 the label 10: the rule's text is read under the spec.
  const Matrix m =
      test::must_parse(with_axes("  read_ratio: [0.25, 0.5]\n  ops_per_transaction: [10, 20]\n",
                                 "exclude:\n  - {read_ratio: 0.50, ops_per_transaction: 010}\n"));
  const Plan plan = make_plan(m, {}, kWideHost);
  EXPECT_EQ(plan.counts.excluded, plan.counts.product / 4);
  const auto bad =
      errors_of(with_axes("  read_ratio: [0.25, 0.5]\n", "exclude:\n  - {read_ratio: 0.75}\n"));
  EXPECT_NE(error_at(bad, "exclude[0].read_ratio").message.find("'0.75' is not a value"),
            std::string::npos);
}

TEST(ParamAxes, each_run_is_sent_its_own_value_and_seeds_differ_by_value) {
  const Matrix m = test::must_parse(with_axes("  ops_per_transaction: [1, 10]\n"));
  const Plan plan = make_plan(m, {}, kWideHost);
  std::set<std::uint64_t> seeds;
  for (const auto& block : plan.blocks) {
    seeds.insert(block.seed);
    const auto params = point_params(m, block.point);
    const auto ops = block.point[static_cast<std::size_t>(Axis::param1)];
    bool sent = false;
    for (const auto& p : params) {
      if (p.key != "ops_per_transaction") continue;
      sent = true;
      EXPECT_EQ(param_value_text(p.value), m.axis(Axis::param1).labels[ops]);
    }
    EXPECT_TRUE(sent);
    // Every other parameter of the kind is sent too, in the kind's order.
    EXPECT_EQ(params.size(), m.workload.params.size() + 1);
  }
  EXPECT_EQ(seeds.size(), plan.blocks.size());
}

TEST(ParamAxes, a_matrix_without_parameter_axes_keeps_its_seeds) {
  // Parameter axes take slots of their own: the ids and seeds of existing matrices stay.
  const Matrix plain = test::must_parse(test::matrix_yaml());
  const Plan plan = make_plan(plain, {}, kWideHost);
  EXPECT_EQ(run_id(plan, plan.runs.front()).find('='), std::string::npos);
  for (std::size_t slot = 0; slot < kParamAxisSlots; ++slot) {
    EXPECT_TRUE(plain.axis(param_axis(slot)).labels.empty());
  }
}

TEST(ParamAxes, an_override_of_a_swept_parameter_is_refused) {
  Matrix m = test::must_parse(with_axes("  ops_per_transaction: [1, 10]\n"));
  const Status set = override_param(m, "ops_per_transaction", "5", "proposal candidate");
  ASSERT_FALSE(set);
  EXPECT_NE(set.error().message.find("is an axis of this matrix"), std::string::npos)
      << set.error().message;
}

const char* const kDescribe =
    R"({"type":"describe","protocol":1,"worker":"toy-engine","meaning":"a toy","params":[)"
    R"({"name":"cache_kib","type":"integer","min":1,"max":4096,"default":64,"meaning":"cache"},)"
    R"({"name":"policy","type":"choice","choices":["lru","fifo"],"default":"lru","meaning":"p"}]})";

Matrix process_matrix(const std::string& axes, const std::string& extra = "") {
  std::string yaml = with_axes(axes, extra);
  yaml.replace(yaml.find("workload: {kind: sqlite}"), 24,
               "workload: {kind: process, command: [./toy]}");
  auto loaded = parse_matrix(yaml, "dir/m.yaml");
  EXPECT_TRUE(loaded.matrix) << format_diagnostics(loaded.diagnostics);
  return loaded.matrix ? *loaded.matrix : Matrix{};
}

TEST(ParamAxes, a_process_workers_parameter_axes_are_checked_once_it_has_declared) {
  const auto said = parse_worker_declaration(kDescribe);
  ASSERT_TRUE(said) << said.error().message;
  const auto& declared = *said;

  Matrix m = process_matrix("  cache_kib: [0064, 128]\n", "exclude:\n  - {cache_kib: 128}\n");
  ASSERT_TRUE(declare_workload(m, declared).empty());
  EXPECT_EQ(m.axis(Axis::param1).labels, (std::vector<std::string>{"64", "128"}));
  EXPECT_EQ(m.workload.params.size(), 1u);  // policy only
  const Plan plan = make_plan(m, {}, kWideHost);
  for (const auto& block : plan.blocks) {
    EXPECT_EQ(point_params(m, block.point).front().value, ParamValue(std::int64_t{64}));
  }

  Matrix bad = process_matrix("  cache_kib: [64, 9999]\n  polcy: [lru]\n");
  const auto ds = declare_workload(bad, declared);
  EXPECT_EQ(error_at(ds, "axes.cache_kib[1]").where.line, 15u);
  EXPECT_NE(error_at(ds, "axes.polcy").message.find("did you mean 'policy'"), std::string::npos);
}

}  // namespace
}  // namespace jbench::param_axes_test
