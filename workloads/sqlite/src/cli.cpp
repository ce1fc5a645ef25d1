#include <fmt/format.h>
#include <unistd.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "jbench/sqlite_workload/config.h"
#include "jbench/sqlite_workload/dataset.h"
#include "jbench/sqlite_workload/protocol.h"
#include "jbench/sqlite_workload/worker.h"
#include "jbench/stats/decimal.h"

namespace jbench::sqlite_workload {
namespace {

using nlohmann::json;

constexpr std::string_view kUsage =
    "usage: jbench-sqlite-worker build-dataset --db PATH --rows N --row-bytes B --seed S\n"
    "       jbench-sqlite-worker serve    (protocol v1 on stdin/stdout; see "
    "docs/worker-protocol.md)\n"
    "       jbench-sqlite-worker describe (its parameters, for a matrix's kind: process)\n"
    "       jbench-sqlite-worker oracle-engine [--subquery-cache off|transaction|connection]\n"
    "                                     (the oracle's line protocol; see "
    "docs/oracle-protocol.md)\n";

int report_error(int out_fd, const std::string& message) {
  fmt::print(stderr, "jbench-sqlite-worker: {}\n", message);
  if (!write_json_line(out_fd, json{{"type", "error"}, {"message", message}}))
    return kExitStdoutClosed;
  return kExitProtocolError;
}

}  // namespace

int build_dataset_command(int argc, char** argv, int out_fd) {
  // argv[0] is "build-dataset"; then exactly the four flags, each once, in any order.
  std::map<std::string, std::string, std::less<>> flags;
  for (int i = 1; i < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag != "--db" && flag != "--rows" && flag != "--row-bytes" && flag != "--seed") {
      return report_error(out_fd, fmt::format("unknown argument '{}'", flag));
    }
    if (i + 1 >= argc) return report_error(out_fd, fmt::format("{} needs a value", flag));
    if (!flags.emplace(flag, argv[i + 1]).second) {
      return report_error(out_fd, fmt::format("{} given twice", flag));
    }
  }
  for (const char* required : {"--db", "--rows", "--row-bytes", "--seed"}) {
    if (!flags.contains(required))
      return report_error(out_fd, fmt::format("{} is required", required));
  }
  DatasetSpec spec;
  spec.db_path = flags["--db"];
  const auto rows = stats::parse_decimal_u64(flags["--rows"]);
  const auto row_bytes = stats::parse_decimal_u64(flags["--row-bytes"]);
  const auto seed = stats::parse_decimal_u64(flags["--seed"]);
  if (!rows || !row_bytes || !seed) {
    return report_error(out_fd, "--rows, --row-bytes and --seed take unsigned decimal integers");
  }
  if (*row_bytes > kMaxRowBytes) {
    return report_error(out_fd, fmt::format("--row-bytes must be in 0..{}", kMaxRowBytes));
  }
  spec.rows = *rows;
  spec.row_bytes = static_cast<std::uint32_t>(*row_bytes);
  spec.seed = *seed;

  const DatasetBuild built = build_dataset(spec);
  if (!built.report) return report_error(out_fd, built.error);
  const DatasetReport& r = *built.report;
  const json line{{"type", "dataset"},
                  {"rows", r.shape.rows},
                  {"row_bytes", r.shape.row_bytes},
                  {"groups", r.shape.groups},
                  {"seed", stats::to_decimal(spec.seed)},
                  {"db_bytes", r.db_bytes},
                  {"page_size", r.page_size},
                  {"page_count", r.page_count},
                  {"build_ns", stats::to_decimal(r.build_ns)},
                  {"content_sha256", r.content_sha256}};
  return write_json_line(out_fd, line) ? kExitOk : kExitStdoutClosed;
}

int run_worker(int argc, char** argv) {
  const std::string_view mode = argc >= 2 ? argv[1] : "";
  if (mode == "serve" && argc == 2) return serve(STDIN_FILENO, STDOUT_FILENO);
  if (mode == "describe" && argc == 2) {
    return write_json_line(STDOUT_FILENO, describe_message()) ? kExitOk : kExitStdoutClosed;
  }
  if (mode == "build-dataset") return build_dataset_command(argc - 1, argv + 1, STDOUT_FILENO);
  if (mode == "oracle-engine") return oracle_engine_command(argc - 1, argv + 1);
  if (mode == "--help" || mode == "-h") {
    fmt::print("{}", kUsage);
    return kExitOk;
  }
  fmt::print(stderr, "{}", kUsage);
  return kExitProtocolError;
}

}  // namespace jbench::sqlite_workload
