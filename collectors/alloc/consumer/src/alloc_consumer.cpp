#include "jbench/collectors/alloc/alloc_consumer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "jbench/alloc/alloc_summary.h"
#include "jbench/events/line_reader.h"

namespace jbench::collectors {
namespace {

using Json = nlohmann::json;

EventContext context_of(const AllocInput& in) { return {in.run_id, in.boot_id, in.cohort}; }

alloc::AllocReport read_all(const AllocInput& in) {
  std::vector<std::string> paths;
  for (const auto& f : alloc_files(in)) paths.push_back(in.run_dir + "/" + f);
  return alloc::read_alloc_files(paths, context_of(in),
                                 alloc::phases_from_boundaries(in.boundaries));
}

}  // namespace

std::string alloc_file_for(std::size_t index) {
  return fmt::format("raw/alloc/worker-{}.events.jsonl", index);
}

std::vector<std::size_t> alloc_headers_seen(const std::string& run_dir,
                                            const std::vector<Registered>& workers) {
  std::vector<std::size_t> seen;
  for (std::size_t i = 0; i < workers.size(); ++i) {
    std::ifstream in(run_dir + "/" + alloc_file_for(i));
    std::string line;
    if (!std::getline(in, line)) continue;
    const Json header = Json::parse(line, nullptr, false);
    if (!header.is_object() || header.value("kind", "") != "header") continue;
    const std::string ticks = header.value("start_time_ticks", "");
    if (header.value("pid", std::int64_t{-1}) == workers[i].pid &&
        ticks == std::to_string(workers[i].start_time_ticks)) {
      seen.push_back(i);
    }
  }
  return seen;
}

std::vector<std::string> alloc_files(const AllocInput& in) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < in.workers; ++i) {
    const std::string base = in.run_dir + "/" + alloc_file_for(i);
    for (const auto& path : alloc::find_alloc_files(base)) {
      out.push_back(path.substr(in.run_dir.size() + 1));
    }
  }
  return out;
}

CollectorEntry consume_alloc(const AllocInput& in, std::vector<std::size_t> headers_seen,
                             std::uint64_t started_ns, std::uint64_t mean_bytes) {
  CollectorEntry e;
  e.name = "alloc";
  e.backend = "ld-preload";
  e.started_ns = started_ns;
  e.attached_ns = started_ns;
  e.canaries_seen = std::move(headers_seen);
  e.attach_verified = e.canaries_seen.size() == in.workers;
  e.raw = alloc_files(in);
  e.extra["source"] = "ld-preload";
  e.extra["mean_bytes"] = mean_bytes;
  e.extra["proof"] =
      "each worker's sampler wrote a header naming its registered incarnation before release";
  const auto report = read_all(in);
  for (const auto& inc : report.incarnations) e.dropped += inc.dropped;
  // Every record line counts (samples, overflow markers, the sampler's own summary), as the
  // validator counts them in the files.
  for (const auto& f : e.raw) {
    events::for_each_line(
        in.run_dir + "/" + f, kMaxLineBytes,
        [&](std::size_t, std::string_view line) {
          if (line.find(R"("kind":"record")") != std::string_view::npos) ++e.records;
          return true;
        },
        [](std::size_t) {});
  }
  e.malformed = report.problems.size();
  e.ended = report.ok() ? Ended::exit(0) : Ended::exit(1);
  if (!report.ok()) {
    const auto& p = report.problems.front();
    e.fail(fmt::format("{}: {} (line {}): {}", p.file, p.code, p.line, p.message));
  }
  finish(e, in.workers);
  return e;
}

Json alloc_summary(const AllocInput& in) {
  const auto report = read_all(in);
  Json cells = Json::array();
  for (const auto& inc : report.incarnations) {
    for (const auto& [phase, t] : inc.phases) {
      if (t.samples == 0 && !t.lossy) continue;
      cells.push_back({{"pid", inc.pid},
                       {"start_time_ticks", std::to_string(inc.start_time_ticks)},
                       {"phase", phase},
                       {"samples", t.samples},
                       {"estimated_bytes", std::llround(t.estimated_bytes)},
                       {"lossy", t.lossy}});
    }
  }
  Json incarnations = Json::array();
  for (const auto& inc : report.incarnations) {
    incarnations.push_back({{"pid", inc.pid},
                            {"start_time_ticks", std::to_string(inc.start_time_ticks)},
                            {"origin", inc.origin},
                            {"mean_bytes", inc.mean_bytes},
                            {"samples", inc.samples},
                            {"dropped", inc.dropped},
                            {"estimated_bytes", std::llround(inc.estimated_bytes)}});
  }
  return {{"units", {{"estimated_bytes", "bytes"}}},
          {"estimator", "poisson-bytes: each sample of s bytes stands for s / (1 - exp(-s/mean))"},
          {"incarnations", incarnations},
          {"cells", cells}};
}

}  // namespace jbench::collectors
