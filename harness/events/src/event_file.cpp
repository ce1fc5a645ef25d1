#include "jbench/events/event_file.h"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <map>
#include <tuple>

#include "span_graph.h"

namespace jbench {
namespace {

using Json = nlohmann::json;

// A 64-bit value written as a decimal string (docs/events.md); false when `key` is not one.
bool decimal(const Json& object, const char* key, std::uint64_t& out) {
  if (!object.contains(key) || !object[key].is_string()) return false;
  const auto& s = object[key].get_ref<const std::string&>();
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

class Reader {
 public:
  Reader(const EventContext& ctx, EventFileReport& report) : ctx_(ctx), report_(report) {}

  void line(std::size_t number, const std::string& text) {
    auto j = Json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("kind") || !j["kind"].is_string()) {
      problem("events.malformed", number, "not a JSON object with a \"kind\"");
      return;
    }
    const std::string kind = j["kind"];
    if (number == 1 && kind != "header") {
      problem("events.no_header", number, "the first line is not the header");
    }
    if (report_.trailer) {
      problem("events.after_trailer", number, "a line after the trailer");
      return;
    }
    if (kind == "header") {
      header(number, j);
    } else if (kind == "record") {
      record(number, j);
    } else if (kind == "trailer") {
      report_.trailer = j;
      trailer(number, j);
    } else {
      problem("events.malformed", number, fmt::format("unknown kind \"{}\"", kind));
    }
  }

  void finish() {
    if (!report_.trailer) {
      problem("events.no_trailer", 0,
              "the file ends without a trailer: the collector did not finish writing it");
    }
    spans_.finish([&](const char* code, std::size_t line, std::string message) {
      problem(code, line, std::move(message));
    });
  }

 private:
  void problem(const char* code, std::size_t line, std::string message) {
    if (report_.problems.size() == kMaxProblemsPerFile) {
      report_.problems.push_back({"events.too_many_problems", line, "further problems not listed"});
    }
    if (report_.problems.size() > kMaxProblemsPerFile) return;
    report_.problems.push_back({code, line, std::move(message)});
  }

  void header(std::size_t n, const Json& h) {
    if (n != 1 || report_.header) {
      problem("events.malformed", n, "a second header");
      return;
    }
    report_.header = h;
    if (h.value("schema", "") != kEventSchema) {
      problem("events.bad_header", n, fmt::format("schema is not \"{}\"", kEventSchema));
    } else if (!h.contains("schema_version") || h["schema_version"] != kEventSchemaVersion) {
      problem("events.unknown_version", n,
              fmt::format("schema_version {} is not {}",
                          h.contains("schema_version") ? h["schema_version"].dump() : "(none)",
                          kEventSchemaVersion));
    }
    if (!h.contains("collector") || !h["collector"].is_string() || !h.contains("backend") ||
        !h["backend"].is_string()) {
      problem("events.bad_header", n, "the header names no collector or backend");
    }
    const bool units =
        h.contains("units") && h["units"].is_object() && h["units"].value("t_ns", "") == "ns";
    if (h.value("clock", "") != "CLOCK_MONOTONIC" || !units) {
      problem("events.units_missing", n,
              "the header must declare clock CLOCK_MONOTONIC and the unit of every field "
              "(at least units.t_ns = \"ns\")");
    }
    if (h.value("run_id", "") != ctx_.run_id) {
      problem("events.wrong_run", n,
              fmt::format("the file belongs to run \"{}\", not \"{}\"", h.value("run_id", ""),
                          ctx_.run_id));
    }
    if (h.value("boot_id", "") != ctx_.boot_id) {
      problem("events.wrong_boot", n, "the header's boot_id is not the run's");
    }
  }

  void record(std::size_t n, const Json& r) {
    ++report_.records;
    std::uint64_t seq = 0;
    std::uint64_t ticks = 0;
    std::uint64_t t = 0;
    const bool numbers =
        decimal(r, "seq", seq) && decimal(r, "start_time_ticks", ticks) && decimal(r, "t_ns", t);
    const bool typed = r.contains("type") && r["type"].is_string();
    const bool ids = r.contains("pid") && r["pid"].is_number_integer() && r.contains("tid") &&
                     r["tid"].is_number_integer();
    if (!numbers || !typed || !ids) {
      problem("events.malformed", n,
              "a record needs type, seq, pid, start_time_ticks, tid and t_ns (64-bit values "
              "as decimal strings)");
      return;
    }
    const std::int64_t pid = r["pid"];
    const std::int64_t tid = r["tid"];
    if (!ctx_.cohort.count({pid, ticks})) {
      problem("events.outside_cohort", n,
              fmt::format("pid {} (start time {}) is not a registered incarnation of the run", pid,
                          ticks));
    }
    // One stream is one thread of one incarnation: its sequence has no gaps and its clock
    // does not run backwards.
    auto [it, fresh] = streams_.try_emplace({pid, ticks, tid}, Stream{seq, t});
    if (!fresh) {
      Stream& stream = it->second;
      if (seq != stream.seq + 1) {
        problem("events.gap", n,
                fmt::format("stream pid {} tid {}: seq {} follows {}", pid, tid, seq, stream.seq));
      }
      if (t < stream.t_ns) {
        problem(
            "events.not_monotonic", n,
            fmt::format("stream pid {} tid {}: t_ns {} is before {}", pid, tid, t, stream.t_ns));
      }
      stream = Stream{seq, std::max(t, stream.t_ns)};
    } else if (seq != 0) {
      problem("events.gap", n,
              fmt::format("stream pid {} tid {} starts at seq {}, not 0", pid, tid, seq));
    }
    typed_record(n, r["type"].get<std::string>(), r);
  }

  void typed_record(std::size_t n, const std::string& type, const Json& r) {
    const auto report = [&](const char* code, std::size_t line, std::string message) {
      problem(code, line, std::move(message));
    };
    if (type == "span_begin" || type == "span_end") {
      if (!r.contains("span_id") || !r["span_id"].is_string()) {
        problem("events.malformed", n, fmt::format("{} without a span_id", type));
        return;
      }
      const std::string id = r["span_id"];
      if (type == "span_end") {
        spans_.end(id, n, report);
        return;
      }
      ++report_.spans;
      std::optional<std::string> parent;
      if (r.contains("parent_id") && r["parent_id"].is_string()) parent = r["parent_id"];
      spans_.begin(id, parent, n, report);
    } else if (type == "overflow") {
      problem("events.overflow", n, "the collector's buffer overflowed here: events were lost");
    } else if (type != "canary" && type != "counter" && type != "gc_begin" && type != "gc_end" &&
               type != "alloc_sample" && type != "phase" && type != "syscall") {
      ++report_.unknown_types;  // a newer writer's record: skipped, as the format allows
    }
  }

  void trailer(std::size_t n, const Json& t) {
    if (!t.contains("records") || !t["records"].is_number_unsigned() ||
        t["records"].get<std::uint64_t>() != report_.records) {
      problem("events.count_mismatch", n,
              fmt::format("the trailer says {} records, the file holds {}",
                          t.contains("records") ? t["records"].dump() : "(none)", report_.records));
    }
    if (t.value("dropped", std::uint64_t{1}) != 0) {
      problem("events.dropped", n,
              fmt::format("the collector dropped {} records", t.value("dropped", Json()).dump()));
    }
    if (t.value("malformed", std::uint64_t{0}) != 0) {
      problem("events.collector_malformed", n, "the collector itself wrote malformed records");
    }
    const Json ended = t.value("ended", Json());
    const bool clean =
        ended.is_object() && ended.value("how", "") == "exit" && ended.value("code", -1) == 0;
    if (!clean) {
      problem("events.bad_end", n,
              fmt::format("the collector did not end cleanly: {}", ended.dump()));
    }
  }

  struct Stream {
    std::uint64_t seq;
    std::uint64_t t_ns;
  };
  const EventContext& ctx_;
  EventFileReport& report_;
  std::map<std::tuple<std::int64_t, std::uint64_t, std::int64_t>, Stream> streams_;
  events_detail::SpanGraph spans_;
};

}  // namespace

EventFileReport check_event_file(const std::string& path, const EventContext& context) {
  EventFileReport report;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    report.problems.push_back({"events.unreadable", 0, "cannot open the file"});
    return report;
  }
  Reader reader(context, report);
  std::string text;
  std::size_t number = 0;
  while (std::getline(in, text)) reader.line(++number, text);
  if (number == 0) report.problems.push_back({"events.no_header", 0, "the file is empty"});
  reader.finish();
  return report;
}

}  // namespace jbench
