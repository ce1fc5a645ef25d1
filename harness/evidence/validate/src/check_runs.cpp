// Each run.json on its own: phase boundaries, cohort attribution and identity, how the workers
// ended, and how the collectors ended.
#include <fmt/format.h>

#include <array>
#include <set>
#include <tuple>

#include "checks.h"
#include "jbench/model/documents.h"

namespace jbench::validate {
namespace {

// The five collector status words (docs/design.md); no other word is ever valid.
constexpr std::array<const char*, 5> kCollectorStatuses = {
    "ok", "no_events_observed", "not_requested", "not_available", "collector_failed"};

void check_boundaries(const std::string& file, const Json& run, bool ok, Findings& findings) {
  const Json* boundaries = member(run, "boundaries");
  if (!boundaries) return;  // the schema check reports it
  // An ok run went through every phase, so every boundary exists. Any run's boundaries, as far
  // as they go, are in phase order.
  std::optional<std::uint64_t> previous;
  std::string_view previous_name;
  for (std::string_view name : model::kBoundaryNames) {
    const auto t = u64_at(*boundaries, name);
    if (!t) {
      if (ok) {
        findings.add("boundaries.missing", file, fmt::format("/boundaries/{}", name),
                     fmt::format("the run is ok but has no {}", name));
      }
      continue;
    }
    if (previous && *t < *previous) {
      findings.add("boundaries.order", file, fmt::format("/boundaries/{}", name),
                   fmt::format("{} = {} comes before {} = {}", name, *t, previous_name, *previous));
    }
    previous = t;
    previous_name = name;
  }
}

void check_cohort(const std::string& file, const Json& run, bool ok, Findings& findings) {
  const Json* cohort = member(run, "cohort");
  const Json* members = cohort ? member(*cohort, "members") : nullptr;
  if (!members || !members->is_array()) return;
  const Json* boundaries = member(run, "boundaries");
  // 0 when there is no release time: then there is nothing to compare registrations with.
  const std::uint64_t warmup_start =
      boundaries ? u64_at(*boundaries, "warmup_start_ns").value_or(0) : 0;
  std::set<std::tuple<std::string, std::uint64_t, std::uint64_t>> incarnations;
  std::set<std::string> runtime_ids;
  std::set<std::uint64_t> pids;
  for (std::size_t i = 0; i < members->size(); ++i) {
    const Json& m = (*members)[i];
    const std::string at = fmt::format("/cohort/members/{}", i);
    const auto registered = u64_at(m, "registered_ns");
    // Attribution: only a process registered before the workload was released can have all
    // of its work attributed to the run. A process a worker forked cannot be registered before
    // it exists: it joins at the next scan and is attributed through its parent.
    const bool forked = m.contains("forked") && m["forked"] == true;
    if (!forked && warmup_start != 0 && (!registered || *registered >= warmup_start)) {
      findings.add("cohort.registered_late", file, at + "/registered_ns",
                   registered ? fmt::format("registered at {}, not before warmup_start_ns {}",
                                            *registered, warmup_start)
                              : "no registration time");
    }
    const auto boot = string_at(m, "boot_id");
    const auto pid = u64_at(m, "pid");
    const auto ticks = u64_at(m, "start_time_ticks");
    if (pid) pids.insert(*pid);
    if (boot && pid && ticks && !incarnations.emplace(*boot, *pid, *ticks).second) {
      findings.add(
          "cohort.duplicate_incarnation", file, at,
          fmt::format("(boot {}, pid {}, start {}) is registered twice", *boot, *pid, *ticks));
    }
    const auto runtime_id = string_at(m, "runtime_id");
    if (runtime_id && !runtime_ids.insert(*runtime_id).second) {
      findings.add("cohort.duplicate_runtime_id", file, at + "/runtime_id",
                   fmt::format("runtime id {} belongs to two members", *runtime_id));
    }
    // A worker is admitted before its exec and confirmed by its hello: an ok run has no worker
    // whose hello never came.
    if (ok && !forked && !runtime_id) {
      findings.add("cohort.worker_unconfirmed", file, at + "/runtime_id",
                   "a worker of an ok run without the runtime id of its hello");
    }
  }
  if (!ok) return;
  // In an ok run every worker that did the work is a member of the cohort.
  const Json* workers = member(run, "workers");
  if (!workers || !workers->is_array()) return;
  for (std::size_t i = 0; i < workers->size(); ++i) {
    const auto pid = u64_at((*workers)[i], "pid");
    if (pid && !pids.count(*pid)) {
      findings.add("cohort.worker_unregistered", file, fmt::format("/workers/{}/pid", i),
                   fmt::format("worker pid {} is not a cohort member", *pid));
    }
  }
}

void check_worker_exits(const std::string& file, const Json& run, Findings& findings) {
  const Json* workers = member(run, "workers");
  if (!workers || !workers->is_array()) return;
  for (std::size_t i = 0; i < workers->size(); ++i) {
    const std::string at = fmt::format("/workers/{}/exit", i);
    const Json* exit = member((*workers)[i], "exit");
    if (!exit || !exit->is_object()) {
      findings.add("workers.bad_exit", file, at, "the run is ok but this worker's exit is unknown");
      continue;
    }
    const Json* signaled = member(*exit, "signaled");
    const bool by_signal = !signaled || !signaled->is_boolean() || signaled->get<bool>();
    const auto code = u64_at(*exit, "code");
    if (by_signal || code != 0u) {
      findings.add("workers.bad_exit", file, at,
                   fmt::format("the run is ok but this worker ended with {}",
                               string_at(*exit, "description").value_or(exit->dump())));
    }
  }
}

// A collector that says it saw the run (ok, no_events_observed) must prove it: attachment
// verified by every worker's canary, a clean end, nothing dropped or malformed, and a status
// that matches what it recorded.
void check_collector_lifecycle(const std::string& file, const Json& run, const Json& c,
                               std::size_t i, Findings& findings) {
  const std::string at = fmt::format("/trace_mode/collectors/{}", i);
  const std::string name = string_at(c, "name").value_or(fmt::format("#{}", i));
  const Json* life = member(c, "lifecycle");
  const bool verified =
      life && member(*life, "attach_verified") && *member(*life, "attach_verified") == true;
  std::set<std::int64_t> seen;
  if (const Json* canaries = life ? member(*life, "canaries_seen") : nullptr;
      canaries && canaries->is_array()) {
    for (const auto& w : *canaries) {
      if (w.is_number_integer()) seen.insert(w.get<std::int64_t>());
    }
  }
  std::size_t workers = 0;
  if (const Json* ws = member(run, "workers"); ws && ws->is_array()) workers = ws->size();
  bool every_canary = true;
  for (std::size_t w = 0; w < workers; ++w)
    every_canary = every_canary && seen.count(std::int64_t(w));
  if (!verified || !every_canary) {
    findings.add("collectors.not_verified", file, at + "/lifecycle",
                 fmt::format("collector {} never proved it attached: attach_verified must be "
                             "true and every worker's canary seen ({} of {} seen)",
                             name, seen.size(), workers));
  }
  const Json* ended = life ? member(*life, "ended") : nullptr;
  const bool clean = ended && string_at(*ended, "how") == "exit" && member(*ended, "code") &&
                     *member(*ended, "code") == 0;
  if (!clean) {
    findings.add("collectors.bad_end", file, at + "/lifecycle/ended",
                 fmt::format("collector {} did not end with exit 0: {}", name,
                             ended ? ended->dump() : "(no record of how it ended)"));
  }
  const auto count = [&](const char* key) -> std::uint64_t {
    const Json* v = member(c, key);
    return v && v->is_number_unsigned() ? v->get<std::uint64_t>() : 0;
  };
  if (count("dropped") > 0 || count("malformed") > 0) {
    findings.add("collectors.lost_records", file, at,
                 fmt::format("collector {} dropped {} and mangled {} records", name,
                             count("dropped"), count("malformed")));
  }
  const bool ok = string_at(c, "status") == "ok";
  if (ok != (count("records") > 0)) {
    findings.add("collectors.status_mismatch", file, at + "/status",
                 fmt::format("collector {} says {} but recorded {} records", name,
                             ok ? "ok" : "no_events_observed", count("records")));
  }
}

// Each collector the trace mode requires is there and did run: a mode without its collectors
// is not the mode it claims to be.
void check_required(const std::string& file, const Json& run, const Json& mode,
                    Findings& findings) {
  // A run that ended before its cohort was registered started no collector; only a run that
  // failed may say so.
  if (const Json* attached = member(mode, "attached"); attached && *attached == false) {
    if (string_at(run, "status") == "ok") {
      findings.add("collectors.never_attached", file, "/trace_mode/attached",
                   "the run is ok, but says its collectors never attached");
    }
    return;
  }
  const Json* required = member(mode, "requires");
  const Json* collectors = member(mode, "collectors");
  if (!required || !required->is_array()) return;
  for (std::size_t i = 0; i < required->size(); ++i) {
    if (!(*required)[i].is_string()) continue;
    const std::string name = (*required)[i];
    const Json* found = nullptr;
    if (collectors && collectors->is_array()) {
      for (const auto& c : *collectors) {
        if (string_at(c, "name") == name) found = &c;
      }
    }
    const std::string at = fmt::format("/trace_mode/requires/{}", i);
    if (!found) {
      findings.add(
          "collectors.required_missing", file, at,
          fmt::format("the trace mode requires collector {}, which the run does not list", name));
      continue;
    }
    const auto status = string_at(*found, "status").value_or("");
    if (status == "not_available" || status == "not_requested") {
      findings.add("collectors.required_unavailable", file, at,
                   fmt::format("the trace mode requires collector {}, which was {}: {}", name,
                               status, string_at(*found, "reason").value_or("no reason")));
    }
  }
}

void check_collectors(const std::string& file, const Json& run, Findings& findings) {
  const Json* mode = member(run, "trace_mode");
  if (mode) check_required(file, run, *mode, findings);
  const Json* collectors = mode ? member(*mode, "collectors") : nullptr;
  if (!collectors || !collectors->is_array()) return;
  for (std::size_t i = 0; i < collectors->size(); ++i) {
    const std::string at = fmt::format("/trace_mode/collectors/{}/status", i);
    const Json& c = (*collectors)[i];
    const std::string name = string_at(c, "name").value_or(fmt::format("#{}", i));
    const auto status = string_at(c, "status");
    bool known = false;
    for (const char* word : kCollectorStatuses) known = known || status == word;
    if (!known) {
      findings.add("collectors.unknown_status", file, at,
                   fmt::format("collector {} ended with '{}', which is not one of the five "
                               "status words",
                               name, status.value_or("(none)")));
    } else if (*status == "collector_failed") {
      findings.add("collectors.failed", file, at,
                   fmt::format("collector {} failed: {}", name,
                               string_at(c, "reason").value_or("no reason recorded")));
    } else if (*status == "not_available" && string_at(c, "reason").value_or("").empty()) {
      findings.add("collectors.no_reason", file, at,
                   fmt::format("collector {} is not_available without saying why", name));
    } else if (*status == "ok" || *status == "no_events_observed") {
      check_collector_lifecycle(file, run, c, i, findings);
    }
  }
}

// A run states its trace mode three times: `trace` (what the overhead report pairs by),
// `trace_mode.mode` (what its collectors were chosen for) and `values.trace` (its cell). One
// edited alone would have a run counted as another mode than it ran in.
void check_trace_twins(const std::string& file, const Json& run, Findings& findings) {
  const auto trace = string_at(run, "trace");
  const Json* mode_doc = member(run, "trace_mode");
  const auto mode = mode_doc ? string_at(*mode_doc, "mode") : std::nullopt;
  const Json* values = member(run, "values");
  const auto value = values ? string_at(*values, "trace") : std::nullopt;
  if (!trace) return;  // the schema check reports a run without one
  if ((mode && *mode != *trace) || (value && *value != *trace)) {
    findings.add("runs.trace_mismatch", file, "/trace",
                 fmt::format("the run says trace \"{}\", its trace_mode.mode \"{}\" and its "
                             "values.trace \"{}\": one of them was edited",
                             *trace, mode.value_or("(none)"), value.value_or("(none)")));
  }
}

}  // namespace

void check_runs(const BundleView& bundle, Findings& findings) {
  for (const auto& r : bundle.runs) {
    if (!r.run) continue;
    const std::string file = r.dir + "/run.json";
    const bool ok = string_at(*r.run, "status") == "ok";
    check_boundaries(file, *r.run, ok, findings);
    check_cohort(file, *r.run, ok, findings);
    if (ok) check_worker_exits(file, *r.run, findings);
    check_collectors(file, *r.run, findings);
    check_trace_twins(file, *r.run, findings);
  }
}

}  // namespace jbench::validate
