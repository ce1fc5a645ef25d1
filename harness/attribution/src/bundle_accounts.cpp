#include "jbench/attribution/bundle_accounts.h"

#include <fmt/format.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "jbench/bundle/sha256sums.h"
#include "jbench/report/bundle_runs.h"
#include "run_reader.h"

namespace jbench::attribution {
namespace {

using Json = nlohmann::json;

void check_validity(const std::string& dir, const ReadOptions& options, BundleAccounts& out) {
  const std::string name = std::filesystem::path(dir).filename().string();
  if (name.ends_with(".invalid")) {
    out.valid = false;
    out.invalid_because.push_back(
        "its directory is named *.invalid: the run that wrote it found it invalid");
  }
  std::ifstream in(dir + "/validation.json");
  const Json v = in ? Json::parse(in, nullptr, false) : Json();
  if (!v.is_object() || !v.contains("valid") || !v["valid"].is_boolean()) {
    out.valid = false;
    out.invalid_because.push_back("validation.json is missing or unreadable");
  } else if (!v["valid"].get<bool>()) {
    out.valid = false;
    out.invalid_because.push_back(
        fmt::format("validation.json records {} findings", v.value("finding_count", 0)));
  }
  if (options.check_sums) {
    const auto problems = verify_sha256sums(dir);
    if (!problems.empty()) {
      out.valid = false;
      out.invalid_because.push_back(fmt::format(
          "SHA256SUMS: {} {}: {}{}", problems.front().code, problems.front().path,
          problems.front().detail,
          problems.size() > 1 ? fmt::format(" (and {} more)", problems.size() - 1) : ""));
    }
  }
}

}  // namespace

BundleAccounts read_bundle_accounts(const std::string& dir, const ReadOptions& options) {
  BundleAccounts out;
  out.name = std::filesystem::path(dir).filename().string();
  auto runs = report::read_bundle_runs(dir);
  if (!runs.error.empty()) {
    out.error = runs.error;
    return out;
  }
  out.runs = std::move(runs.runs);
  out.status = runs.bundle_status;
  check_validity(dir, options, out);

  std::vector<std::size_t> traced;
  for (std::size_t i = 0; i < out.runs.size(); ++i) {
    const auto& r = out.runs[i];
    if (r.trace != "light" && r.trace != "full") continue;
    if (r.status != "ok") {
      out.skipped.push_back(fmt::format("{}: status {}, not accounted", r.id, r.status));
      continue;
    }
    traced.push_back(i);
  }
  // Runs are independent: read them on a few threads, each result in its own slot so the
  // output does not depend on the scheduling.
  std::vector<RunRead> results(traced.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t k; (k = next.fetch_add(1)) < traced.size();) {
      results[k] = read_run(dir, out.runs[traced[k]]);
    }
  };
  std::vector<std::thread> pool;
  const auto n = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(options.threads, traced.size())));
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (auto& r : results) {
    out.syscall_records += r.syscall_records;
    out.bytes_read += r.bytes;
    if (!r.error.empty()) {
      if (out.error.empty()) out.error = r.error;
      continue;
    }
    out.accounts.push_back(std::move(r.account));
  }
  return out;
}

}  // namespace jbench::attribution
