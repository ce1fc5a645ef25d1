#include "jbench/collectors/modes/summaries.h"

#include <cstdlib>
#include <fstream>
#include <set>
#include <utility>

#include "jbench/collectors/alloc/alloc_consumer.h"
#include "jbench/collectors/bridge/bridge_consumer.h"
#include "jbench/collectors/cpu/cpu_accounting.h"
#include "jbench/collectors/instructions/instructions_collector.h"
#include "jbench/common/incarnation_id.h"

namespace jbench::collectors {
namespace {

using Json = nlohmann::json;

// run.json is read from a bundle that may have been edited (the validator recomputes the
// summary from it): a member of the wrong type reads as absent, never as an exception.
std::string text_of(const Json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Json member_of(const Json& object, const char* key, Json fallback) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->type() == fallback.type() ? *it : fallback;
}

const Json* collector(const Json& run, const char* name) {
  const auto mode = run.find("trace_mode");
  if (mode == run.end() || !mode->is_object()) return nullptr;
  const auto list = mode->find("collectors");
  if (list == mode->end() || !list->is_array()) return nullptr;
  for (const auto& c : *list) {
    if (text_of(c, "name") == name) return &c;
  }
  return nullptr;
}

bool ran(const Json* c) {
  if (!c) return false;
  const auto status = status_from_word(text_of(*c, "status"));
  return status && ::jbench::collectors::ran(*status);
}

// The run's registered incarnations, as the raw files' records must name them.
void read_cohort(const Json& run, std::string& boot_id, std::set<IncarnationId>& cohort) {
  const Json members = member_of(run, "cohort", Json::object());
  boot_id = text_of(members, "boot_id");
  for (const auto& m : member_of(members, "members", Json::array())) {
    const auto pid = m.is_object() ? m.find("pid") : m.end();
    const std::string ticks = text_of(m, "start_time_ticks");
    cohort.insert({pid != m.end() && pid->is_number_integer() ? pid->get<std::int64_t>() : 0,
                   std::strtoull(ticks.c_str(), nullptr, 10)});
  }
}

}  // namespace

Json summarize_collectors(const std::string& run_dir, const Json& run) {
  Json out = Json::object();
  if (std::ifstream in(run_dir + "/" + kCpuReadingsFile); in) {
    const Json readings = Json::parse(in, nullptr, false);
    // A damaged record is said so in the summary, never summarized with zeros (the validator
    // also reports it against the readings' schema).
    if (readings.is_object()) {
      auto summary = cpu_summary(readings);
      out["cpu"] = summary ? std::move(*summary) : Json{{"error", summary.error().message}};
    }
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
    in.run_id = text_of(run, "id");
    read_cohort(run, in.boot_id, in.cohort);
    in.workers = in.files.files.size();
    in.phases = PhaseBoundaries::from_json(member_of(run, "boundaries", Json::object()));
    in.gc_expected = ran(collector(run, "gc"));
    const Json* alloc = collector(run, "alloc");
    in.alloc_in_runtime = ran(alloc) && text_of(*alloc, "source") == "bridge";
    const auto consumed = consume(in);
    out["spans"] = consumed.spans_summary;
    // Counters are recorded in full mode only: absent otherwise, never an empty "none seen".
    if (text_of(member_of(run, "trace_mode", Json::object()), "mode") == "full") {
      out["counters"] = consumed.counters_summary;
    }
    if (in.gc_expected) out["gc"] = consumed.gc_summary;
    if (in.alloc_in_runtime) out["alloc"] = consumed.alloc_summary;
  }
  // The syscall collector's own summary: in light mode the kernel's aggregates are the raw data.
  if (const Json* sc = collector(run, "syscall"); ran(sc) && sc->contains("summary_file")) {
    if (std::ifstream in(run_dir + "/" + text_of(*sc, "summary_file")); in) {
      const Json summary = Json::parse(in, nullptr, false);
      if (!summary.is_discarded()) out["syscall"] = summary;
    }
  }
  if (const Json* counted = collector(run, "instructions"); ran(counted)) {
    out["instructions"] = instructions_summary(run_dir, kInstructionsFile);
  }
  const Json* alloc = collector(run, "alloc");
  if (ran(alloc) && text_of(*alloc, "source") == "ld-preload") {
    AllocInput in;
    in.run_dir = run_dir;
    in.run_id = text_of(run, "id");
    read_cohort(run, in.boot_id, in.cohort);
    in.workers = member_of(run, "workers", Json::array()).size();
    in.boundaries = member_of(run, "boundaries", Json::object());
    out["alloc"] = alloc_summary(in);
  }
  return out;
}

}  // namespace jbench::collectors
