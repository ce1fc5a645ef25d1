#include "matrix_text.h"

#include <gtest/gtest.h>

#include "jbench/common/diagnostic.h"

namespace jbench::test {

std::string matrix_yaml(const std::string& axes, const std::string& extra, int repetitions) {
  const std::string default_axes = R"(axes:
  workers: [1, 2, 4]
  connection: [cold, persistent]
  lane: [writer, reader, mixed]
  dataset:
    - {name: small, rows: 100, row_bytes: 10, page_cache_kib: 1024}
    - {name: large, rows: 100000, row_bytes: 100, page_cache_kib: 64}
  trace: [baseline, no-consumer, light, full]
)";
  return "version: 1\nname: test\nseed: 42\nrepetitions: " + std::to_string(repetitions) +
         "\nworkload: {kind: sqlite}\n"
         "phases: {warmup: {duration_ms: 10}, measure: {operations: 100}}\n"
         "limits: {max_workers: 64, run_timeout_s: 10, output_mib: 8}\n" +
         (axes.empty() ? default_axes : axes) + extra;
}

Matrix must_parse(const std::string& yaml) {
  auto loaded = parse_matrix(yaml, "test.yaml");
  EXPECT_TRUE(loaded.matrix.has_value()) << format_diagnostics(loaded.diagnostics);
  return loaded.matrix ? *loaded.matrix : Matrix{};
}

}  // namespace jbench::test
