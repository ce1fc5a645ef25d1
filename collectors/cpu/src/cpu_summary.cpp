// The cpu collector's summary, from its raw readings alone (raw/cpu.readings.json). The run loop
// writes it into summary.json and the validator recomputes it from a bundle that may have been
// edited, so the document is read strictly: a missing or mistyped field stops the summary
// instead of counting as zero (a default would make a damaged record look like an idle process).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "jbench/collectors/cpu/cpu_accounting.h"
#include "jbench/common/clock.h"

namespace jbench::collectors {
namespace {

using Json = nlohmann::json;

// Field access that remembers the first problem, by JSON pointer; once one is found every later
// read returns a neutral value and the caller discards the result.
class StrictReader {
 public:
  const std::string& error() const { return error_; }

  // A non-negative integer: a JSON number, or a decimal string (64-bit values).
  std::uint64_t u64(const Json& object, const char* key, const std::string& at) {
    const Json* v = find(object, key, at);
    if (!v) return 0;
    if (v->is_number_unsigned()) return v->get<std::uint64_t>();
    // A document built in memory holds signed integers where a parsed one holds unsigned.
    if (v->is_number_integer() && v->get<std::int64_t>() >= 0) {
      return static_cast<std::uint64_t>(v->get<std::int64_t>());
    }
    if (v->is_string()) {
      const auto& s = v->get_ref<const std::string&>();
      std::uint64_t out = 0;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
      if (!s.empty() && ec == std::errc() && end == s.data() + s.size()) return out;
    }
    fail(at + "/" + key, "is not a non-negative integer");
    return 0;
  }

  // A non-negative integer, or none where the document says null or (a reading of an earlier
  // version) has no such field: not known, never zero.
  std::optional<std::uint64_t> optional_u64(const Json& object, const char* key,
                                            const std::string& at) {
    if (!error_.empty() || !object.is_object()) return std::nullopt;
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    return u64(object, key, at);
  }

  std::string text(const Json& object, const char* key, const std::string& at) {
    const Json* v = find(object, key, at);
    if (v && v->is_string()) return v->get<std::string>();
    if (v) fail(at + "/" + key, "is not a string");
    return {};
  }

  const Json& array(const Json& object, const char* key, const std::string& at) {
    static const Json empty = Json::array();
    const Json* v = find(object, key, at);
    if (v && v->is_array()) return *v;
    if (v) fail(at + "/" + key, "is not an array");
    return empty;
  }

  // The member itself, whatever its type (a null is a value, not an absence).
  const Json* find(const Json& object, const char* key, const std::string& at) {
    if (!error_.empty()) return nullptr;
    if (!object.is_object()) {
      fail(at, "is not an object");
      return nullptr;
    }
    const auto it = object.find(key);
    if (it == object.end()) {
      fail(at + "/" + key, "is missing");
      return nullptr;
    }
    return &*it;
  }

 private:
  void fail(const std::string& pointer, const char* what) {
    if (error_.empty()) error_ = fmt::format("{} {}", pointer.empty() ? "/" : pointer, what);
  }
  std::string error_;
};

std::uint64_t diff(std::uint64_t a, std::uint64_t b) { return a - std::min(a, b); }

// Counters that readings of an earlier version do not have (their summary has none either): page
// faults, JSON numbers as the context switches are, and I/O bytes, decimal strings.
struct LaterCounter {
  const char* key;
  bool decimal;
};
constexpr std::array<LaterCounter, 6> kLater = {{{"minor_faults", false},
                                                 {"major_faults", false},
                                                 {kIoFields[0].name, true},
                                                 {kIoFields[1].name, true},
                                                 {kIoFields[2].name, true},
                                                 {kIoFields[3].name, true}}};
using LaterValues = std::array<std::optional<std::uint64_t>, kLater.size()>;

// A reading's later counters: none known when it has no such fields, each null where the
// reading says null (/proc/<pid>/io could not be read).
std::optional<LaterValues> later_values(StrictReader& read, const Json& r, const std::string& at) {
  if (!r.is_object() || !r.contains(kLater[0].key)) return std::nullopt;
  LaterValues v;
  for (std::size_t i = 0; i < kLater.size(); ++i) v[i] = read.optional_u64(r, kLater[i].key, at);
  return v;
}

// A phase's later counters, from the reading as it began to the next: null where either is.
void add_later(Json& phase, const LaterValues& now, const LaterValues& previous) {
  for (std::size_t i = 0; i < kLater.size(); ++i) {
    if (!now[i] || !previous[i]) {
      phase[kLater[i].key] = nullptr;
    } else if (kLater[i].decimal) {
      phase[kLater[i].key] = ns_string(diff(*now[i], *previous[i]));
    } else {
      phase[kLater[i].key] = diff(*now[i], *previous[i]);
    }
  }
}

Json optional_diff(std::optional<std::uint64_t> a, std::optional<std::uint64_t> b) {
  return a && b ? Json(ns_string(diff(*a, *b))) : Json(nullptr);
}

// One reading's counters. Each phase is the difference between the reading as it began and the
// next one; startup runs from the process's start (zero) to the first boundary, teardown to the
// exit totals.
struct Counters {
  std::uint64_t cpu_ns = 0, user_ticks = 0, system_ticks = 0, voluntary = 0, involuntary = 0;
  // The scheduler's times: absent from readings of an earlier version (then absent from the
  // summary too), null where the kernel keeps no schedstat.
  bool scheduled = true;
  std::optional<std::uint64_t> on_cpu_ns = 0;
  std::optional<std::uint64_t> runnable_ns = 0;
  std::optional<LaterValues> later = LaterValues{0, 0, 0, 0, 0, 0};
};

Counters read_counters(StrictReader& read, const Json& r, const std::string& at) {
  Counters c{read.u64(r, "cpu_ns", at),
             read.u64(r, "user_ticks", at),
             read.u64(r, "system_ticks", at),
             read.u64(r, "voluntary_switches", at),
             read.u64(r, "involuntary_switches", at),
             r.is_object() && r.contains("runnable_ns"),
             read.optional_u64(r, "on_cpu_ns", at),
             read.optional_u64(r, "runnable_ns", at),
             later_values(read, r, at)};
  read.u64(r, "threads", at);  // not summarized, but part of every reading
  return c;
}

// What the readings had, for the units: the scheduler's times, the faults and I/O.
struct Seen {
  bool scheduled = false;
  bool later = false;
};

// Converts clock ticks with the rate the readings were taken at, not this host's.
struct Ticks {
  std::uint64_t hz = 0;
  std::uint64_t ns(std::uint64_t ticks) const {
    return hz == 0 ? 0 : ticks * (1'000'000'000ULL / hz);
  }
};

Json phase_between(const Counters& now, const Counters& previous, Ticks ticks) {
  Json phase = {{"cpu_ns", ns_string(diff(now.cpu_ns, previous.cpu_ns))},
                {"user_ns", ns_string(ticks.ns(diff(now.user_ticks, previous.user_ticks)))},
                {"system_ns", ns_string(ticks.ns(diff(now.system_ticks, previous.system_ticks)))},
                {"voluntary_switches", diff(now.voluntary, previous.voluntary)},
                {"involuntary_switches", diff(now.involuntary, previous.involuntary)}};
  if (now.scheduled && previous.scheduled) {
    phase["on_cpu_ns"] = optional_diff(now.on_cpu_ns, previous.on_cpu_ns);
    phase["runnable_ns"] = optional_diff(now.runnable_ns, previous.runnable_ns);
  }
  if (now.later && previous.later) add_later(phase, *now.later, *previous.later);
  return phase;
}

// The last phase, closed by wait4's exit totals, and those totals (`total`).
Json phase_to_exit(StrictReader& read, const Json& exit, const std::string& at,
                   const Counters& previous, Json& total) {
  const std::uint64_t user = read.u64(exit, "user_ns", at);
  const std::uint64_t system = read.u64(exit, "system_ns", at);
  const std::uint64_t voluntary = read.u64(exit, "voluntary_switches", at);
  const std::uint64_t involuntary = read.u64(exit, "involuntary_switches", at);
  Json phase = {{"cpu_ns", ns_string(diff(user + system, previous.cpu_ns))},
                {"voluntary_switches", diff(voluntary, previous.voluntary)},
                {"involuntary_switches", diff(involuntary, previous.involuntary)}};
  if (previous.scheduled) {  // wait4 reports no schedstat times
    phase["on_cpu_ns"] = nullptr;
    phase["runnable_ns"] = nullptr;
  }
  if (previous.later) {  // nor faults or I/O, as jbench keeps them
    for (const LaterCounter& c : kLater) phase[c.key] = nullptr;
  }
  total = {{"cpu_ns", ns_string(user + system)},  {"user_ns", ns_string(user)},
           {"system_ns", ns_string(system)},      {"voluntary_switches", voluntary},
           {"involuntary_switches", involuntary}, {"source", read.text(exit, "source", at)}};
  return phase;
}

// One incarnation's phases, from its readings and exit totals.
Json incarnation_summary(StrictReader& read, const Json& t, const std::string& at, Ticks ticks,
                         Seen& seen) {
  Json phases = Json::object();
  Counters previous;
  std::string phase = "startup";
  const Json& readings = read.array(t, "readings", at);
  for (std::size_t k = 0; k < readings.size(); ++k) {
    const Json& r = readings[k];
    const std::string rat = fmt::format("{}/readings/{}", at, k);
    const std::string began = read.text(r, "began", rat);
    const Counters now = read_counters(read, r, rat);
    seen.scheduled = seen.scheduled || now.scheduled;
    seen.later = seen.later || now.later.has_value();
    if (began == "registered") continue;
    phases[phase] = phase_between(now, previous, ticks);
    previous = now;
    phase = began;
  }
  const Json* worker = read.find(t, "worker", at);
  Json j = {{"worker", worker ? *worker : Json(nullptr)},
            {"pid", read.u64(t, "pid", at)},
            {"start_time_ticks", ns_string(read.u64(t, "start_time_ticks", at))}};
  const Json* exit = read.find(t, "exit", at);
  if (exit && exit->is_object()) {
    Json total;
    phases[phase] = phase_to_exit(read, *exit, at + "/exit", previous, total);
    j["total"] = std::move(total);
  }
  j["phases"] = phases;
  return j;
}

Json units_of(const Seen& seen) {
  Json units = {{"cpu_ns", "ns"},
                {"user_ns", "ns (clock-tick resolution)"},
                {"system_ns", "ns (clock-tick resolution)"}};
  if (seen.scheduled) {
    units["on_cpu_ns"] = "ns, schedstat, the workload's threads alive at both readings";
    units["runnable_ns"] = "ns, schedstat, the workload's threads alive at both readings";
  }
  if (seen.later) {
    units["minor_faults"] = "page faults met from memory, /proc/<pid>/stat, the thread group's";
    units["major_faults"] = "page faults that read a file or swap, /proc/<pid>/stat";
    units["read_chars"] = "bytes through read-family calls, /proc/<pid>/io rchar";
    units["written_chars"] = "bytes through write-family calls, /proc/<pid>/io wchar";
    units["storage_read_bytes"] = "bytes the storage layer fetched, /proc/<pid>/io read_bytes";
    units["storage_written_bytes"] = "bytes sent to the storage layer, /proc/<pid>/io write_bytes";
  }
  return units;
}

}  // namespace

Result<Json> cpu_summary(const Json& doc) {
  StrictReader read;
  const Ticks ticks{read.u64(doc, "clock_ticks_per_second", "")};
  Json out = Json::array();
  Seen seen;
  const Json& incarnations = read.array(doc, "incarnations", "");
  for (std::size_t i = 0; i < incarnations.size(); ++i) {
    out.push_back(incarnation_summary(read, incarnations[i], fmt::format("/incarnations/{}", i),
                                      ticks, seen));
  }
  if (!read.error().empty()) {
    return Error{"raw/cpu.readings.json: " + read.error(), 0, ErrorKind::input};
  }
  return Json{{"units", units_of(seen)}, {"incarnations", out}};
}

}  // namespace jbench::collectors
