#include "jbench/collectors/bridge/bridge_consumer.h"

#include <fmt/format.h>
#include <poll.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <map>
#include <tuple>
#include <unordered_map>

#include "jbench/common/clock.h"
#include "jbench/events/event_file.h"
#include "jbench/events/line_reader.h"

namespace jbench::collectors {
namespace {

using Json = nlohmann::json;

std::uint64_t u64(const Json& j, const char* key) {
  if (!j.contains(key)) return 0;
  const Json& v = j[key];
  if (v.is_string()) return std::stoull(v.get_ref<const std::string&>());
  if (v.is_number_unsigned() || v.is_number_integer()) return v.get<std::uint64_t>();
  return 0;
}

// A log2 histogram of nanosecond values: bucket k counts values in [2^k, 2^(k+1)).
class Log2Histogram {
 public:
  void add(std::uint64_t v) {
    const std::size_t k = v == 0 ? 0 : static_cast<std::size_t>(std::bit_width(v) - 1);
    if (buckets_.size() <= k) buckets_.resize(k + 1, 0);
    ++buckets_[k];
  }
  Json to_json() const {
    Json out = Json::array();
    for (std::size_t k = 0; k < buckets_.size(); ++k) {
      if (buckets_[k] == 0) continue;
      out.push_back({{"from_ns", ns_string(k == 0 ? 0 : std::uint64_t{1} << k)},
                     {"to_ns", ns_string(std::uint64_t{1} << (k + 1))},
                     {"count", buckets_[k]}});
    }
    return out;
  }

 private:
  std::vector<std::uint64_t> buckets_;
};

struct GcCell {
  std::uint64_t collections = 0;
  std::uint64_t pause_total_ns = 0;
  std::uint64_t pause_max_ns = 0;
  std::uint64_t bytes_reclaimed = 0;
  Log2Histogram pauses;
};

struct AllocCell {
  std::uint64_t samples = 0;
  std::uint64_t bytes = 0;
};

// A project's own counter (jb_counter) in one incarnation and phase: its records, their sum
// (saturating at the int64 range, said so), the least and the greatest value.
struct CounterCell {
  std::uint64_t records = 0;
  std::int64_t sum = 0, min = 0, max = 0;
  bool overflowed = false;
  void add(std::int64_t v) {
    if (records == 0 || v < min) min = v;
    if (records == 0 || v > max) max = v;
    ++records;
    if (__builtin_add_overflow(sum, v, &sum)) {
      overflowed = true;
      sum = v > 0 ? INT64_MAX : INT64_MIN;
    }
  }
};

struct SpanInfo {
  std::string name;
  std::string parent;
  std::uint64_t begin_ns = 0;
  std::uint64_t end_ns = 0;
  bool ended = false;
  std::int64_t pid = 0;  // the incarnation that began it
  std::uint64_t start_ticks = 0;
  std::size_t phase = 0;  // the phase it began in
};

// What the records of every file add up to, keyed by the incarnation and phase they fell in.
struct Accumulated {
  std::unordered_map<std::string, SpanInfo> spans;
  std::map<std::pair<IncarnationId, std::size_t>, GcCell> gc;
  std::map<std::pair<IncarnationId, std::size_t>, AllocCell> alloc;
  std::map<std::tuple<IncarnationId, std::size_t, std::string>, CounterCell> counters;
};

struct Totals {
  std::uint64_t records = 0;
  std::uint64_t dropped = 0;
  std::uint64_t malformed = 0;
  std::uint64_t spans = 0;
  std::uint64_t gc = 0;
  std::uint64_t allocs = 0;
  std::vector<std::string> problems;
  bool every_trailer_clean = true;
};

// Reads one file's records into the summaries (the checker has already judged the structure).
void read_records(const std::string& path, const PhaseBoundaries& phases, Accumulated& acc,
                  Totals& t) {
  auto& [spans, gc, alloc, counters] = acc;
  // An open collection per stream: (pid, tid) -> (begin t_ns, bytes before).
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<std::uint64_t, std::uint64_t>> open;
  // Plain or compressed, as every reader reads a raw file; the checker judged it already.
  events::for_each_line(
      path, kMaxLineBytes,
      [&](std::size_t, std::string_view line) {
        Json r = Json::parse(line, nullptr, false);
        if (!r.is_object() || r.value("kind", "") != "record") return true;
        const std::string type = r.value("type", "");
        const std::uint64_t t_ns = u64(r, "t_ns");
        const IncarnationId who{r.value("pid", std::int64_t{0}), u64(r, "start_time_ticks")};
        const std::size_t phase = phases.phase_index(t_ns);
        if (type == "span_begin") {
          ++t.spans;
          SpanInfo& s = spans[r.value("span_id", "")];
          s.name = r.value("name", "");
          s.parent = r["parent_id"].is_string() ? r["parent_id"].get<std::string>() : "";
          s.begin_ns = t_ns;
          s.pid = who.pid;
          s.start_ticks = who.start_time_ticks;
          s.phase = phase;
        } else if (type == "span_end") {
          SpanInfo& s = spans[r.value("span_id", "")];
          s.end_ns = t_ns;
          s.ended = true;
        } else if (type == "gc_begin") {
          open[{who.pid, r.value("tid", std::int64_t{0})}] = {t_ns, u64(r, "bytes")};
        } else if (type == "gc_end") {
          const auto key = std::make_pair(who.pid, r.value("tid", std::int64_t{0}));
          const auto it = open.find(key);
          if (it == open.end()) {
            t.problems.push_back(
                fmt::format("{}: a gc_end without its gc_begin (pid {})", path, who.pid));
            return true;
          }
          ++t.gc;
          const std::uint64_t pause = t_ns - std::min(t_ns, it->second.first);
          const std::uint64_t after = u64(r, "bytes");
          GcCell& c = gc[{who, phases.phase_index(it->second.first)}];
          ++c.collections;
          c.pause_total_ns += pause;
          c.pause_max_ns = std::max(c.pause_max_ns, pause);
          c.bytes_reclaimed += it->second.second > after ? it->second.second - after : 0;
          c.pauses.add(pause);
          open.erase(it);
        } else if (type == "alloc_sample") {
          ++t.allocs;
          AllocCell& c = alloc[{who, phase}];
          ++c.samples;
          c.bytes += u64(r, "bytes");
        } else if (type == "counter") {
          std::int64_t value = 0;
          const std::string text = r.value("value", "");
          std::from_chars(text.data(), text.data() + text.size(), value);
          counters[{who, phase, r.value("name", "")}].add(value);
        } else if (type == "overflow") {
          // The drop is counted in the trailer; the marker says where in the stream it happened.
        }
        return true;
      },
      [](std::size_t) {});
  for (const auto& [key, begin] : open) {
    t.problems.push_back(fmt::format("{}: a gc_begin of pid {} never ended", path, key.first));
  }
}

// By name over the run, and by incarnation x phase (the phase a span began in) x name: count,
// total, self time (its duration less its direct children's) and max, in ns.
Json spans_summary(const std::unordered_map<std::string, SpanInfo>& spans) {
  std::unordered_map<std::string, std::uint64_t> children_ns;
  for (const auto& [id, s] : spans) {
    if (s.ended && !s.parent.empty()) children_ns[s.parent] += s.end_ns - s.begin_ns;
  }
  struct Sums {
    std::uint64_t count = 0, total_ns = 0, self_ns = 0, max_ns = 0;
    void add(std::uint64_t total, std::uint64_t self) {
      ++count;
      total_ns += total;
      self_ns += self;
      max_ns = std::max(max_ns, total);
    }
    Json to_json() const {
      return {{"count", count},
              {"total_ns", ns_string(total_ns)},
              {"self_ns", ns_string(self_ns)},
              {"max_ns", ns_string(max_ns)}};
    }
  };
  std::map<std::string, Sums> by_name;
  std::map<std::tuple<std::int64_t, std::uint64_t, std::size_t, std::string>, Sums> by_cell;
  for (const auto& [id, s] : spans) {
    if (!s.ended) continue;
    const std::uint64_t total = s.end_ns - std::min(s.end_ns, s.begin_ns);
    const auto it = children_ns.find(id);
    const std::uint64_t kids = it == children_ns.end() ? 0 : it->second;
    const std::uint64_t self = total - std::min(total, kids);
    by_name[s.name].add(total, self);
    by_cell[{s.pid, s.start_ticks, s.phase, s.name}].add(total, self);
  }
  Json names = Json::array();
  for (const auto& [name, b] : by_name) {
    Json j = {{"name", name}};
    j.update(b.to_json());
    names.push_back(std::move(j));
  }
  Json cells = Json::array();
  for (const auto& [key, b] : by_cell) {
    const auto& [pid, ticks, phase, name] = key;
    Json j = {{"pid", pid},
              {"start_time_ticks", ns_string(ticks)},
              {"phase", kPhases[phase]},
              {"name", name}};
    j.update(b.to_json());
    cells.push_back(std::move(j));
  }
  return {{"by_name", names}, {"by_incarnation_phase", cells}};
}

// By incarnation x phase x name: the records of each counter, their sum, least and greatest
// value, in the counter's own unit (docs/bridge.md, jb_counter).
Json counters_summary(
    const std::map<std::tuple<IncarnationId, std::size_t, std::string>, CounterCell>& counters) {
  Json cells = Json::array();
  for (const auto& [key, c] : counters) {
    const auto& [who, phase, name] = key;
    Json j = {{"pid", who.pid},
              {"start_time_ticks", ns_string(who.start_time_ticks)},
              {"phase", kPhases[phase]},
              {"name", name},
              {"records", c.records},
              {"sum", c.sum},
              {"min", c.min},
              {"max", c.max}};
    if (c.overflowed) j["overflowed"] = true;
    cells.push_back(std::move(j));
  }
  return {{"unit", "the counter's own"}, {"cells", cells}};
}

}  // namespace

std::string bridge_file_for(std::size_t index) {
  return fmt::format("raw/bridge/worker-{}.events.jsonl", index);
}

std::vector<std::size_t> await_canaries(const BridgeFiles& files, std::uint64_t deadline_ns) {
  std::vector<std::size_t> seen;
  std::vector<bool> found(files.files.size(), false);
  while (true) {
    for (std::size_t i = 0; i < files.files.size(); ++i) {
      if (found[i]) continue;
      std::ifstream in(files.run_dir + "/" + files.files[i]);
      std::string line;
      while (std::getline(in, line)) {
        if (line.find(R"("type":"canary")") != std::string::npos) {
          found[i] = true;
          seen.push_back(i);
          break;
        }
      }
    }
    if (seen.size() == files.files.size() || monotonic_ns() >= deadline_ns) break;
    poll(nullptr, 0, 2);
  }
  std::sort(seen.begin(), seen.end());
  return seen;
}

namespace {

// Every worker's raw file checked and read: records and problems counted, the clean ones'
// records accumulated.
void read_files(const BridgeConsumerInput& in, Totals& t, Accumulated& acc) {
  const EventContext context{in.run_id, in.boot_id, in.cohort};
  for (std::size_t i = 0; i < in.files.files.size(); ++i) {
    const std::string path = in.files.run_dir + "/" + in.files.files[i];
    const EventFileReport report = check_event_file(path, context);
    t.records += report.records;
    for (const auto& p : report.problems) {
      ++t.malformed;
      if (t.problems.size() < 5) {
        t.problems.push_back(
            fmt::format("worker {}: line {}: {}: {}", i, p.line, p.code, p.message));
      }
    }
    if (!report.trailer) {
      t.every_trailer_clean = false;
      continue;
    }
    const Json& trailer = *report.trailer;
    t.dropped += u64(trailer, "dropped");
    t.malformed += u64(trailer, "malformed");
    const Json ended = trailer.value("ended", Json::object());
    if (ended.value("how", "") != "exit" || ended.value("code", -1) != 0) {
      t.every_trailer_clean = false;
    }
    if (report.ok()) read_records(path, in.phases, acc, t);
  }
}

// An entry of the bridge's collectors (bridge, spans, gc, alloc): what they all share, from the
// files' totals and the canaries.
CollectorEntry bridge_entry(const BridgeConsumerInput& in, const Totals& t, std::string name,
                            std::uint64_t records) {
  CollectorEntry e;
  e.name = std::move(name);
  e.backend = "usdt-bridge";
  e.setting = in.setting;
  e.started_ns = in.started_ns;
  e.attached_ns = in.attached_ns;
  e.attach_verified = in.canaries_seen.size() == in.workers;
  e.canaries_seen = in.canaries_seen;
  e.ended = t.every_trailer_clean ? Ended::exit(0) : Ended::exit(1);
  e.records = records;
  e.dropped = t.dropped;
  e.malformed = t.malformed;
  if (!t.every_trailer_clean) {
    e.fail("a worker's raw file has no trailer or its writer did not end cleanly");
  }
  if (!t.problems.empty()) e.fail(fmt::format("{}", fmt::join(t.problems, "; ")));
  if (!e.attach_verified) {
    e.fail(
        fmt::format("attachment not verified: {} of {} workers' canaries reached the "
                    "bridge's files before release",
                    in.canaries_seen.size(), in.workers));
  }
  return e;
}

Json cell_key(const IncarnationId& who, std::size_t phase) {
  return Json{{"pid", who.pid},
              {"start_time_ticks", ns_string(who.start_time_ticks)},
              {"phase", kPhases[phase]}};
}

Json gc_summary_of(const Accumulated& acc) {
  Json cells = Json::array();
  for (const auto& [key, c] : acc.gc) {
    Json j = cell_key(key.first, key.second);
    j.update({{"collections", c.collections},
              {"pause_total_ns", ns_string(c.pause_total_ns)},
              {"pause_max_ns", ns_string(c.pause_max_ns)},
              {"bytes_reclaimed", ns_string(c.bytes_reclaimed)},
              {"pause_histogram", c.pauses.to_json()}});
    cells.push_back(std::move(j));
  }
  return {{"units", {{"pause", "ns"}, {"bytes_reclaimed", "bytes"}}}, {"cells", cells}};
}

Json alloc_summary_of(const Accumulated& acc) {
  Json cells = Json::array();
  for (const auto& [key, c] : acc.alloc) {
    Json j = cell_key(key.first, key.second);
    j.update({{"samples", c.samples}, {"sampled_bytes", ns_string(c.bytes)}});
    cells.push_back(std::move(j));
  }
  return {{"units", {{"sampled_bytes", "bytes"}}}, {"cells", cells}};
}

}  // namespace

BridgeConsumerOutput consume(const BridgeConsumerInput& in) {
  BridgeConsumerOutput out;
  Totals t;
  Accumulated acc;
  read_files(in, t, acc);
  // One entry per collector the bridge serves: finished, then kept in this order.
  const auto add = [&](std::string name, std::uint64_t records, bool from_bridge) {
    CollectorEntry e = bridge_entry(in, t, std::move(name), records);
    if (from_bridge) e.extra["source"] = "bridge";
    return e;
  };
  CollectorEntry bridge = add("bridge", t.records, false);
  bridge.raw = in.files.files;
  finish(bridge, in.workers);
  out.entries.push_back(bridge);
  CollectorEntry span_entry = add("spans", t.spans, true);
  finish(span_entry, in.workers);
  out.entries.push_back(span_entry);
  out.spans_summary = spans_summary(acc.spans);
  out.counters_summary = counters_summary(acc.counters);
  if (in.gc_expected) {
    CollectorEntry gc_entry = add("gc", t.gc, true);
    finish(gc_entry, in.workers);
    out.entries.push_back(gc_entry);
    out.gc_summary = gc_summary_of(acc);
  }
  if (in.alloc_in_runtime) {
    CollectorEntry alloc_entry = add("alloc", t.allocs, true);
    finish(alloc_entry, in.workers);
    out.entries.push_back(alloc_entry);
    out.alloc_summary = alloc_summary_of(acc);
  }
  return out;
}

}  // namespace jbench::collectors
