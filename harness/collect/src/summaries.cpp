#include "jbench/collect/summaries.h"

#include <fstream>
#include <set>
#include <utility>

#include "jbench/collect/alloc_consumer.h"
#include "jbench/collect/bridge_consumer.h"
#include "jbench/collect/cpu_accounting.h"

namespace jbench::collect {
namespace {

using Json = nlohmann::json;

const Json* collector(const Json& run, const char* name) {
  const auto mode = run.find("trace_mode");
  if (mode == run.end() || !mode->is_object()) return nullptr;
  const auto list = mode->find("collectors");
  if (list == mode->end() || !list->is_array()) return nullptr;
  for (const auto& c : *list) {
    if (c.is_object() && c.value("name", "") == name) return &c;
  }
  return nullptr;
}

bool ran(const Json* c) {
  if (!c) return false;
  const std::string status = c->value("status", "");
  return status != kNotRequested && status != kNotAvailable;
}

// The run's registered incarnations, as the raw files' records must name them.
void read_cohort(const Json& run, std::string& boot_id,
                 std::set<std::pair<std::int64_t, std::uint64_t>>& cohort) {
  const Json members = run.value("cohort", Json::object());
  boot_id = members.value("boot_id", "");
  for (const auto& m : members.value("members", Json::array())) {
    cohort.insert({m.value("pid", std::int64_t{0}),
                   std::stoull(m.value("start_time_ticks", std::string("0")))});
  }
}

}  // namespace

Json summarize_collectors(const std::string& run_dir, const Json& run) {
  Json out = Json::object();
  if (std::ifstream in(run_dir + "/" + kCpuReadingsFile); in) {
    const Json readings = Json::parse(in, nullptr, false);
    if (readings.is_object()) out["cpu"] = cpu_summary(readings);
  }
  const Json* bridge = collector(run, "bridge");
  if (ran(bridge) && bridge->contains("raw")) {
    BridgeConsumerInput in;
    in.files.run_dir = run_dir;
    const Json& raw = (*bridge)["raw"];
    if (raw.is_string()) in.files.files.push_back(raw.get<std::string>());
    if (raw.is_array()) {
      for (const auto& f : raw) {
        if (f.is_string()) in.files.files.push_back(f.get<std::string>());
      }
    }
    in.run_id = run.value("id", "");
    read_cohort(run, in.boot_id, in.cohort);
    in.workers = in.files.files.size();
    in.phases = PhaseBoundaries::from_json(run.value("boundaries", Json::object()));
    in.gc_expected = ran(collector(run, "gc"));
    const Json* alloc = collector(run, "alloc");
    in.alloc_in_runtime = ran(alloc) && alloc->value("source", "") == "bridge";
    const auto consumed = consume(in);
    out["spans"] = consumed.spans_summary;
    if (in.gc_expected) out["gc"] = consumed.gc_summary;
    if (in.alloc_in_runtime) out["alloc"] = consumed.alloc_summary;
  }
  // The syscall collector's own summary: in light mode the kernel's aggregates are the raw data.
  if (const Json* sc = collector(run, "syscall"); ran(sc) && sc->contains("summary_file")) {
    if (std::ifstream in(run_dir + "/" + sc->value("summary_file", "")); in) {
      const Json summary = Json::parse(in, nullptr, false);
      if (!summary.is_discarded()) out["syscall"] = summary;
    }
  }
  const Json* alloc = collector(run, "alloc");
  if (ran(alloc) && alloc->value("source", "") == "ld-preload") {
    AllocInput in;
    in.run_dir = run_dir;
    in.run_id = run.value("id", "");
    read_cohort(run, in.boot_id, in.cohort);
    in.workers = run.value("workers", Json::array()).size();
    in.boundaries = run.value("boundaries", Json::object());
    out["alloc"] = alloc_summary(in);
  }
  return out;
}

}  // namespace jbench::collect
