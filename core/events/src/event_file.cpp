#include "jbench/events/event_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <string_view>
#include <tuple>
#include <vector>

#include "jbench/events/flat_record.h"
#include "jbench/events/line_reader.h"
#include "span_graph.h"

namespace jbench {
namespace {

using Json = nlohmann::json;

class Reader {
 public:
  Reader(const EventContext& ctx, EventFileReport& report) : ctx_(ctx), report_(report) {}

  void line(std::size_t number, std::string_view text) {
    // Records are nearly every line: read them without building a document.
    if (number > 1 && !report_.trailer) {
      if (flat_.parse(text) && flat_.string("kind") == "record") {
        record(number, flat_);
        return;
      }
    }
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
      const std::string line = flatten(j);  // the record's views point into it
      FlatRecord flat;
      flat.parse(line);
      record(number, flat);
    } else if (kind == "trailer") {
      report_.trailer = j;
      trailer(number, j);
    } else {
      problem("events.malformed", number, fmt::format("unknown kind \"{}\"", kind));
    }
  }

  void refuse_long_line(std::size_t number) {
    problem("events.malformed", number, fmt::format("a line longer than {} bytes", kMaxLineBytes));
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

  using FlatRecord = events::FlatRecord;

  // A record parsed by the full parser, as a flat line of the fields the checks read (others are
  // ignored; a value of any other JSON type becomes `true`, wrong for every field read here).
  static std::string flatten(const Json& r) {
    Json flat = Json::object();
    for (const char* key :
         {"type", "seq", "pid", "start_time_ticks", "tid", "t_ns", "span_id", "parent_id"}) {
      if (!r.contains(key)) continue;
      const Json& v = r[key];
      flat[key] = v.is_string() || v.is_number_integer() || v.is_null() ? v : Json(true);
    }
    return flat.dump();
  }

  static bool integer(const FlatRecord& f, std::string_view key, std::int64_t& out) {
    const auto v = f.integer(key);
    if (v) out = *v;
    return v.has_value();
  }
  // A 64-bit value written as a decimal string (docs/events.md).
  static bool decimal(const FlatRecord& f, std::string_view key, std::uint64_t& out) {
    const auto v = f.decimal(key);
    if (v) out = *v;
    return v.has_value();
  }

  void record(std::size_t n, const FlatRecord& r) {
    ++report_.records;
    std::uint64_t seq = 0;
    std::uint64_t ticks = 0;
    std::uint64_t t = 0;
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    const auto type = r.string("type");
    const bool complete = decimal(r, "seq", seq) && decimal(r, "start_time_ticks", ticks) &&
                          decimal(r, "t_ns", t) && integer(r, "pid", pid) &&
                          integer(r, "tid", tid) && type;
    if (!complete) {
      problem("events.malformed", n,
              "a record needs type, seq, pid, start_time_ticks, tid and t_ns (64-bit values "
              "as decimal strings)");
      return;
    }
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
    typed_record(n, *type, r);
  }

  void typed_record(std::size_t n, std::string_view type, const FlatRecord& r) {
    const auto report = [&](const char* code, std::size_t line, std::string message) {
      problem(code, line, std::move(message));
    };
    if (type == "span_begin" || type == "span_end") {
      const auto id = r.string("span_id");
      if (!id) {
        problem("events.malformed", n, fmt::format("{} without a span_id", type));
        return;
      }
      if (type == "span_end") {
        spans_.end(*id, n, report);
        return;
      }
      ++report_.spans;
      std::optional<std::string_view> parent;
      if (const auto p = r.string("parent_id")) parent = *p;
      spans_.begin(*id, parent, n, report);
    } else if (type == "overflow") {
      problem("events.overflow", n, "the collector's buffer overflowed here: events were lost");
    } else if (type == "counter") {
      // What the summary adds up and `export` draws: a value either could misread is refused.
      const auto name = r.string("name");
      const auto value = r.string("value");
      std::int64_t parsed = 0;
      const auto [end, ec] =
          value ? std::from_chars(value->data(), value->data() + value->size(), parsed)
                : std::from_chars_result{nullptr, std::errc::invalid_argument};
      if (!name || name->empty() || ec != std::errc() || end != value->data() + value->size() ||
          value->empty()) {
        problem("events.malformed", n,
                "a counter needs a name and a value (a signed 64-bit decimal string)");
      }
    } else if (type != "canary" && type != "gc_begin" && type != "gc_end" &&
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
  FlatRecord flat_;  // reused for every record line
  std::map<std::tuple<std::int64_t, std::uint64_t, std::int64_t>, Stream> streams_;
  events_detail::SpanGraph spans_;
};

}  // namespace

EventFileReport check_event_file(const std::string& path, const EventContext& context) {
  EventFileReport report;
  Reader reader(context, report);
  // A line longer than kMaxLineBytes is refused without being held: memory does not grow with
  // the file or with a hostile line.
  const auto read = events::for_each_line(
      path, kMaxLineBytes,
      [&](std::size_t number, std::string_view line) {
        reader.line(number, line);
        return true;
      },
      [&](std::size_t number) { reader.refuse_long_line(number); });
  if (!read.error.empty() && read.lines == 0) {
    report.problems.push_back({"events.unreadable", 0, read.error});
    return report;
  }
  const std::size_t number = read.lines;
  if (number == 0) report.problems.push_back({"events.no_header", 0, "the file is empty"});
  reader.finish();
  // Read in part, then a damaged or cut stream: what was read is checked above, and the file
  // is still refused, since its bytes are not the ones written.
  if (!read.error.empty()) {
    report.problems.push_back(
        {"events.unreadable", 0, "after line " + std::to_string(number) + ": " + read.error});
  }
  return report;
}

}  // namespace jbench
