#include <gtest/gtest.h>

#include "jbench/matrix/load.h"
#include "matrix_text.h"

namespace jbench {
namespace {

using test::matrix_yaml;

std::vector<Diagnostic> errors_of(const std::string& yaml) {
  auto loaded = parse_matrix(yaml, "t.yaml");
  EXPECT_FALSE(loaded.matrix.has_value());
  return loaded.diagnostics;
}

bool has_error(const std::vector<Diagnostic>& ds, const std::string& path,
               const std::string& fragment) {
  for (const auto& d : ds) {
    if (d.key_path == path && d.message.find(fragment) != std::string::npos) return true;
  }
  return false;
}

TEST(MatrixDecode, decodes_a_valid_matrix_with_defaults_filled) {
  const Matrix m = test::must_parse(matrix_yaml());
  EXPECT_EQ(m.name, "test");
  EXPECT_EQ(m.seed, 42u);
  EXPECT_EQ(m.repetitions, 2u);
  EXPECT_EQ(m.workers, (std::vector<std::uint32_t>{1, 2, 4}));
  ASSERT_EQ(m.datasets.size(), 2u);
  EXPECT_EQ(m.datasets[1].page_cache_kib, 64u);
  EXPECT_EQ(m.trace_modes.size(), 4u);
  EXPECT_EQ(m.measure.kind, Phase::Kind::operations);
  EXPECT_EQ(m.sha256.size(), 64u);
  // plant_fsync_file (no value), plant_delay_ns, plant_sleep_ns, plant_work_loops and
  // plant_allocations (0) and subquery_cache (off) among them
  ASSERT_EQ(m.workload.params.size(), 10u);
  for (const auto& p : m.workload.params) EXPECT_TRUE(p.defaulted) << p.key;
}

TEST(MatrixDecode, an_absent_trace_axis_means_baseline_only) {
  const Matrix m = test::must_parse(
      matrix_yaml("axes:\n  workers: [1]\n  connection: [cold]\n  lane: [writer]\n"
                  "  dataset: [{name: d, rows: 1, row_bytes: 1, page_cache_kib: 1}]\n"));
  EXPECT_FALSE(m.axis(Axis::trace).declared);
  EXPECT_EQ(m.trace_modes, std::vector<TraceMode>{TraceMode::baseline});
}

TEST(MatrixDecode, reports_every_error_in_one_pass) {
  const auto ds = errors_of(
      "version: 1\nname: Bad Name\nseed: -1\nrepetitions: 0\nworkload: {kind: sqlit}\n"
      "phases: {warmup: {duration_ms: 1}, measure: {}}\nlimits: {max_workers: 0}\n"
      "axes: {workers: []}\nsurprise: 1\n");
  EXPECT_TRUE(has_error(ds, "name", "not a valid name"));
  EXPECT_TRUE(has_error(ds, "seed", "out of range"));
  EXPECT_TRUE(has_error(ds, "repetitions", "out of range 1..1000"));
  EXPECT_TRUE(has_error(ds, "workload.kind", "did you mean 'sqlite'"));
  EXPECT_TRUE(has_error(ds, "phases.measure", "exactly one of"));
  EXPECT_TRUE(has_error(ds, "limits.max_workers", "out of range 1..1024"));
  EXPECT_TRUE(has_error(ds, "limits", "missing required key 'run_timeout_s'"));
  EXPECT_TRUE(has_error(ds, "axes.workers", "at least one value"));
  EXPECT_TRUE(has_error(ds, "surprise", "unknown key"));
  EXPECT_GE(ds.size(), 9u);
}

TEST(MatrixDecode, every_error_has_a_line_and_column) {
  const auto ds = errors_of(matrix_yaml("axes:\n  workers: [1, 1, 2000, '4']\n"));
  ASSERT_FALSE(ds.empty());
  for (const auto& d : ds) {
    EXPECT_EQ(d.where.file, "t.yaml");
    EXPECT_GT(d.where.line, 0u) << d.message;
    EXPECT_GT(d.where.column, 0u) << d.message;
  }
  EXPECT_TRUE(has_error(ds, "axes.workers[1]", "duplicate value '1'"));
  EXPECT_TRUE(has_error(ds, "axes.workers[2]", "out of range 1..1024"));
  EXPECT_TRUE(has_error(ds, "axes.workers[3]", "expected a whole number, got a quoted string"));
}

TEST(MatrixDecode, a_workload_kind_requires_its_axes) {
  const auto ds = errors_of(matrix_yaml("axes:\n  workers: [1]\n"));
  EXPECT_TRUE(has_error(ds, "axes", "needs the axis 'connection'"));
  EXPECT_TRUE(has_error(ds, "axes", "needs the axis 'lane'"));
  EXPECT_TRUE(has_error(ds, "axes", "needs the axis 'dataset'"));
}

TEST(MatrixDecode, rejects_duplicate_dataset_names_and_bad_dataset_fields) {
  const auto ds = errors_of(
      matrix_yaml("axes:\n  workers: [1]\n  connection: [cold]\n  lane: [writer]\n  dataset:\n"
                  "    - {name: a, rows: 1, row_bytes: 1, page_cache_kib: 1}\n"
                  "    - {name: a, rows: 1, row_bytes: 1, page_cache_kib: 1}\n"
                  "    - {name: b, rows: 0, row_bytes: 1, page_cache_kib: 1, colour: red}\n"));
  EXPECT_TRUE(has_error(ds, "axes.dataset[1].name", "duplicate value 'a'"));
  EXPECT_TRUE(has_error(ds, "axes.dataset[2].rows", "out of range"));
  EXPECT_TRUE(has_error(ds, "axes.dataset[2].colour", "unknown key"));
}

TEST(MatrixDecode, exclude_rules_must_name_real_values_and_exclude_something_new) {
  const auto ds = errors_of(
      matrix_yaml("",
                  "exclude:\n  - {workers: 4}\n  - {workers: [4], lane: writer}\n  - {workers: 3}\n"
                  "  - {colour: red}\n  - {}\n"));
  EXPECT_TRUE(has_error(ds, "exclude[1]", "no cell that earlier rules do not already exclude"));
  EXPECT_TRUE(has_error(ds, "exclude[2].workers", "'3' is not a value of the axis 'workers'"));
  EXPECT_TRUE(has_error(ds, "exclude[3].colour", "not an axis this matrix declares"));
  EXPECT_TRUE(has_error(ds, "exclude[4]", "empty rule"));
  EXPECT_FALSE(has_error(ds, "exclude[0]", ""));
}

TEST(MatrixDecode, excluding_a_baseline_that_traced_runs_need_is_an_error) {
  const auto ds = errors_of(matrix_yaml("", "exclude:\n  - {workers: 4, trace: baseline}\n"));
  EXPECT_TRUE(has_error(ds, "exclude[0]", "every traced run needs its untraced baseline"));
  // Excluding the baseline together with every traced mode of those cells is fine.
  test::must_parse(
      matrix_yaml("", "exclude:\n  - {workers: 4, trace: [baseline, no-consumer, light, full]}\n"));
}

TEST(MatrixDecode, the_mixed_lane_needs_a_ratio_strictly_between_0_and_1) {
  const auto ds =
      errors_of(matrix_yaml("", "").replace(matrix_yaml("", "").find("workload: {kind: sqlite}"),
                                            std::string("workload: {kind: sqlite}").size(),
                                            "workload: {kind: sqlite, params: {read_ratio: 1}}"));
  EXPECT_TRUE(has_error(ds, "workload.params.read_ratio", "strictly between 0 and 1"));
}

TEST(MatrixDecode, the_syscall_backend_is_one_of_the_named_backends) {
  EXPECT_EQ(test::must_parse(matrix_yaml()).collectors.syscall_backend, "");  // the best here
  const Matrix m =
      test::must_parse(matrix_yaml("", "collectors:\n  syscall:\n    backend: dtrace\n"));
  EXPECT_EQ(m.collectors.syscall_backend, "dtrace");
  const auto typo = errors_of(matrix_yaml("", "collectors:\n  syscall:\n    backend: dtrac\n"));
  EXPECT_TRUE(has_error(typo, "collectors.syscall.backend", "did you mean 'dtrace'"));
  const auto unknown = errors_of(matrix_yaml("", "collectors:\n  syscall:\n    tool: dtrace\n"));
  ASSERT_FALSE(unknown.empty());
  EXPECT_GT(unknown[0].where.line, 0u);
}

TEST(MatrixDecode, the_counter_of_counted_runs_is_perf_or_callgrind) {
  EXPECT_EQ(test::must_parse(matrix_yaml()).collectors.counter_backend, "");  // the best here
  const Matrix m =
      test::must_parse(matrix_yaml("", "collectors:\n  counter:\n    backend: callgrind\n"));
  EXPECT_EQ(m.collectors.counter_backend, "callgrind");
  const auto typo = errors_of(matrix_yaml("", "collectors:\n  counter:\n    backend: perff\n"));
  EXPECT_TRUE(has_error(typo, "collectors.counter.backend", "did you mean 'perf'"));
}

TEST(MatrixDecode, the_allocation_sampler_interval_is_a_per_mode_setting) {
  const Matrix m = test::must_parse(
      matrix_yaml("", "collectors:\n  alloc:\n    mean_interval_bytes: {light: 4096}\n"));
  EXPECT_EQ(m.collectors.alloc_mean_bytes_light, 4096u);
  EXPECT_FALSE(m.collectors.alloc_mean_bytes_full);  // the mode's default stays
  EXPECT_FALSE(test::must_parse(matrix_yaml()).collectors.alloc_mean_bytes_light);
  const auto zero =
      errors_of(matrix_yaml("", "collectors:\n  alloc:\n    mean_interval_bytes: {full: 0}\n"));
  EXPECT_TRUE(has_error(zero, "collectors.alloc.mean_interval_bytes.full", "out of range"));
  const auto unknown =
      errors_of(matrix_yaml("", "collectors:\n  alloc:\n    mean_interval_bytes: {heavy: 10}\n"));
  ASSERT_FALSE(unknown.empty());
  EXPECT_GT(unknown[0].where.line, 0u);
  const auto typo = errors_of(matrix_yaml("", "collectors:\n  allocs: {}\n"));
  ASSERT_FALSE(typo.empty());
  EXPECT_NE(typo[0].message.find("allocs"), std::string::npos) << typo[0].message;
}

TEST(MatrixDecode, phases_must_fit_in_the_run_timeout) {
  std::string yaml = matrix_yaml();
  yaml.replace(yaml.find("measure: {operations: 100}"), 26, "measure: {duration_ms: 10000}");
  const auto ds = errors_of(yaml);
  EXPECT_TRUE(has_error(ds, "phases", "leaves no time within limits.run_timeout_s"));
}

TEST(MatrixDecode, refuses_matrices_that_expand_past_the_run_limit) {
  std::string workers = "[";
  for (int w = 1; w <= 1024; ++w) workers += (w > 1 ? "," : "") + std::to_string(w);
  workers += "]";
  std::string datasets;
  for (int d = 0; d < 256; ++d) {
    datasets +=
        "    - {name: d" + std::to_string(d) + ", rows: 1, row_bytes: 1, page_cache_kib: 1}\n";
  }
  const auto ds = errors_of(matrix_yaml("axes:\n  workers: " + workers +
                                            "\n  connection: [cold, persistent]\n  lane: [writer, "
                                            "reader, mixed]\n  dataset:\n" +
                                            datasets + "  trace: [baseline, full]\n",
                                        "", 1000));
  EXPECT_TRUE(has_error(ds, "axes", "the limit is"));
}

TEST(MatrixDecode, rejects_an_unsupported_language_version) {
  std::string yaml = matrix_yaml();
  yaml.replace(0, 10, "version: 2");
  EXPECT_TRUE(has_error(errors_of(yaml), "version", "version 2 is not supported"));
}

}  // namespace
}  // namespace jbench
