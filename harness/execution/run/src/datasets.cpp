#include "datasets.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/stat.h>

#include <filesystem>

#include "jbench/common/clock.h"
#include "jbench/common/random.h"
#include "jbench/proc/child_process.h"

namespace jbench::run {

std::uint64_t dataset_seed(std::uint64_t matrix_seed, const std::string& name) {
  return combine64(matrix_seed, fnv1a64("dataset=" + name));
}

DatasetCache::DatasetCache(std::string scratch_dir, std::vector<std::string> worker,
                           std::uint64_t matrix_seed, std::uint32_t build_timeout_s)
    : scratch_dir_(std::move(scratch_dir)),
      worker_(std::move(worker)),
      matrix_seed_(matrix_seed),
      build_timeout_s_(build_timeout_s) {}

const BuiltDataset* DatasetCache::find(const Dataset& d) const {
  for (const auto& [name, built] : built_) {
    if (name == d.name) return &built;
  }
  return nullptr;
}

const BuiltDataset& DatasetCache::get(const Dataset& d) {
  if (const BuiltDataset* built = find(d)) return *built;
  built_.emplace_back(d.name, build(d));
  return built_.back().second;
}

bool DatasetCache::has(const Dataset& d) const { return find(d) != nullptr; }

BuiltDataset DatasetCache::build(const Dataset& d) const {
  BuiltDataset out;
  const std::string dir = scratch_dir_ + "/datasets";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  out.path = dir + "/" + d.name + ".db";
  std::filesystem::remove(out.path, ec);
  const std::uint64_t seed = dataset_seed(matrix_seed_, d.name);
  proc::SpawnSpec spec;
  spec.executable = worker_.front();
  spec.args.assign(worker_.begin() + 1, worker_.end());
  spec.args.insert(spec.args.end(),
                   {"build-dataset", "--db", out.path, "--rows", std::to_string(d.rows),
                    "--row-bytes", std::to_string(d.row_bytes), "--seed", std::to_string(seed)});
  spec.stderr_path = dir + "/" + d.name + ".build.log";
  const std::uint64_t start = monotonic_ns();
  auto spawned = proc::ChildProcess::spawn(spec);
  if (!spawned) {
    out.error = fmt::format("cannot build dataset '{}': {}", d.name, spawned.error().message);
    return out;
  }
  auto& child = **spawned;
  child.close_stdin();
  std::vector<std::string> lines;
  bool overlong = false;
  const std::uint64_t deadline = start + std::uint64_t{build_timeout_s_} * 1'000'000'000ULL;
  while (child.read_lines(lines, overlong) && monotonic_ns() < deadline) {
    pollfd p{child.stdout_fd(), POLLIN, 0};
    poll(&p, 1, 200);
  }
  if (monotonic_ns() >= deadline) {
    child.kill_and_reap();
    out.error =
        fmt::format("building dataset '{}' took longer than {} s", d.name, build_timeout_s_);
    return out;
  }
  const auto status = child.kill_and_reap();
  if (status.signaled || status.code != 0 || lines.empty()) {
    out.error = fmt::format("building dataset '{}' failed ({}); see {}", d.name, status.describe(),
                            spec.stderr_path);
    return out;
  }
  auto report = nlohmann::json::parse(lines.back(), nullptr, false);
  if (report.is_discarded() || !report.is_object() || report.value("type", "") != "dataset") {
    out.error = fmt::format("building dataset '{}' printed no dataset report", d.name);
    return out;
  }
  struct stat st {};
  ::stat(out.path.c_str(), &st);
  const std::uint64_t db_bytes = static_cast<std::uint64_t>(st.st_size);
  const std::uint64_t cache_bytes = d.page_cache_kib * 1024;
  out.facts = {
      {"name", d.name},
      {"seed", std::to_string(seed)},
      {"rows", d.rows},
      {"row_bytes", d.row_bytes},
      {"page_cache_kib", d.page_cache_kib},
      {"build_wall_ns", std::to_string(monotonic_ns() - start)},
      {"build_report", report},
      {"db_bytes", db_bytes},
      {"page_cache_bytes", cache_bytes},
      // The measured fact behind a "below/above the threshold" label.
      {"fits_page_cache", db_bytes <= cache_bytes},
      {"db_to_cache_ratio",
       cache_bytes == 0 ? 0.0 : static_cast<double>(db_bytes) / static_cast<double>(cache_bytes)}};
  return out;
}

nlohmann::json DatasetCache::to_json() const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [name, built] : built_) {
    if (built.error.empty()) {
      out.push_back(built.facts);
    } else {
      out.push_back({{"name", name}, {"error", built.error}});
    }
  }
  return out;
}

}  // namespace jbench::run
