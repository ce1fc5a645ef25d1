#include "raw_records.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "jbench/events/event_file.h"
#include "jbench/events/flat_record.h"
#include "jbench/events/line_reader.h"
#include "jbench/stats/decimal.h"

namespace jbench::exports {
namespace {

using Json = nlohmann::json;

// The few lines FlatRecord does not read (a string with a \u escape, say) are read through
// nlohmann; this gives them FlatRecord's accessors so one function fills the event from either.
class JsonFields {
 public:
  explicit JsonFields(const Json& j) : j_(j) {}
  std::optional<std::string_view> string(std::string_view key) const {
    const auto it = j_.find(key);
    if (it == j_.end() || !it->is_string()) return std::nullopt;
    return std::string_view(it->get_ref<const std::string&>());
  }
  std::optional<std::int64_t> integer(std::string_view key) const {
    const auto it = j_.find(key);
    if (it == j_.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<std::int64_t>();
  }
  std::optional<std::uint64_t> decimal(std::string_view key) const {
    const auto s = string(key);
    return s ? stats::parse_decimal_u64(*s) : std::nullopt;
  }
  bool is_null(std::string_view key) const {
    const auto it = j_.find(key);
    return it != j_.end() && it->is_null();
  }

 private:
  const Json& j_;
};

std::optional<RecordType> shown_type(std::string_view type) {
  if (type == "syscall") return RecordType::syscall;
  if (type == "span_begin") return RecordType::span_begin;
  if (type == "span_end") return RecordType::span_end;
  if (type == "gc_begin") return RecordType::gc_begin;
  if (type == "gc_end") return RecordType::gc_end;
  if (type == "phase") return RecordType::phase;
  return std::nullopt;
}

// Fills `e` from a record of a shown type; the name of the first missing field otherwise.
template <class Fields>
const char* fill(const Fields& f, RecordType type, RawEvent& e) {
  e = RawEvent{};
  e.type = type;
  const auto pid = f.integer("pid");
  const auto ticks = f.decimal("start_time_ticks");
  const auto tid = f.integer("tid");
  const auto t = f.decimal("t_ns");
  if (!pid) return "pid";
  if (!ticks) return "start_time_ticks";
  if (!tid) return "tid";
  if (!t) return "t_ns";
  e.pid = *pid;
  e.start_time_ticks = *ticks;
  e.tid = *tid;
  e.t_ns = *t;
  switch (type) {
    case RecordType::span_begin: {
      const auto parent = f.string("parent_id");
      if (!parent && !f.is_null("parent_id")) return "parent_id";
      e.parent_id = parent.value_or(std::string_view{});
      const auto name = f.string("name");
      if (!name) return "name";
      e.name = *name;
      [[fallthrough]];
    }
    case RecordType::span_end: {
      const auto id = f.string("span_id");
      if (!id) return "span_id";
      e.span_id = *id;
      return nullptr;
    }
    case RecordType::gc_begin:
    case RecordType::gc_end: {
      const auto generation = f.integer("generation");
      if (!generation) return "generation";
      e.generation = *generation;
      return nullptr;
    }
    case RecordType::phase: {
      const auto name = f.string("name");
      if (!name) return "name";
      e.name = *name;
      return nullptr;
    }
    case RecordType::syscall: {
      const auto name = f.string("syscall");
      const auto duration = f.decimal("duration_ns");
      if (!name) return "syscall";
      if (!duration) return "duration_ns";
      e.name = *name;
      e.duration_ns = *duration;
      e.fd = f.integer("fd");
      e.result = f.integer("result");
      e.path = f.string("path");
      e.request = f.string("request");
      e.error_name = f.string("errno");
      e.bridge_writer = f.string("thread_role") == std::string_view("bridge_writer");
      return nullptr;
    }
  }
  return nullptr;
}

class FileReader {
 public:
  FileReader(const std::string& path, RunRecordsRead& out,
             const std::function<void(const RawEvent&)>& on_event)
      : path_(path), out_(out), on_event_(on_event) {}

  void read() {
    const auto r = events::for_each_line(
        path_, kMaxLineBytes,
        [&](std::size_t number, std::string_view line) { return line_(number, line); },
        [&](std::size_t number) {
          fail(number, fmt::format("a line longer than {} bytes", kMaxLineBytes));
        });
    if (!r.error.empty() && out_.error.empty()) out_.error = r.error;
  }

 private:
  void fail(std::size_t number, const std::string& why) {
    if (out_.error.empty()) out_.error = fmt::format("{}:{}: {}", path_, number, why);
  }

  bool line_(std::size_t number, std::string_view line) {
    if (!out_.error.empty()) return false;
    if (line.empty()) {
      fail(number, "an empty line (a raw file is one JSON object a line)");
      return false;
    }
    // The common case, a flat record, is read without building a document.
    if (flat_.parse(line) && flat_.string("kind") == std::string_view("record")) {
      return record(number, flat_, flat_.string("type"));
    }
    const Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      fail(number, "not a JSON object");
      return false;
    }
    const std::string kind = j.value("kind", "");
    if (kind == "header") {
      if (j.value("detail", "") == "light") out_.syscall_light = true;
      return true;
    }
    if (kind == "trailer") return true;
    if (kind != "record") {
      fail(number, fmt::format("a line of kind '{}' (header, record or trailer expected)", kind));
      return false;
    }
    const JsonFields fields(j);
    return record(number, fields, fields.string("type"));
  }

  template <class Fields>
  bool record(std::size_t number, const Fields& f, std::optional<std::string_view> type) {
    if (!type) {
      fail(number, "a record without a type");
      return false;
    }
    const auto shown = shown_type(*type);
    if (!shown) {
      ++(*type == "syscall_totals" ? out_.totals_records : out_.skipped);
      return true;
    }
    if (const char* missing = fill(f, *shown, event_)) {
      fail(number, fmt::format("a '{}' record without a valid '{}'", *type, missing));
      return false;
    }
    on_event_(event_);
    return true;
  }

  const std::string& path_;
  RunRecordsRead& out_;
  const std::function<void(const RawEvent&)>& on_event_;
  events::FlatRecord flat_;
  RawEvent event_;
};

}  // namespace

RunRecordsRead read_run_records(const RunInput& run,
                                const std::function<void(const RawEvent&)>& on_event) {
  RunRecordsRead out;
  for (const auto& path : run.bridge_files) {
    FileReader(path, out, on_event).read();
    if (!out.error.empty()) return out;
  }
  if (run.syscall_file) FileReader(*run.syscall_file, out, on_event).read();
  return out;
}

}  // namespace jbench::exports
