#include "raw_records.h"

#include <fmt/format.h>

#include <charconv>
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
  std::optional<bool> boolean(std::string_view key) const {
    const auto it = j_.find(key);
    if (it == j_.end() || !it->is_boolean()) return std::nullopt;
    return it->get<bool>();
  }

 private:
  const Json& j_;
};

// FlatRecord's fields gathered in one sweep: a call record has about 18 fields and the event
// wants most of them, so looking each up by name would compare keys some hundred times a line.
class SweptFields {
 public:
  explicit SweptFields(const events::FlatRecord& r) {
    for (const auto& f : r.fields()) {
      if (const int slot = slot_of(f.key); slot >= 0) slots_[slot] = &f;
    }
  }
  std::optional<std::string_view> string(std::string_view key) const {
    const events::FlatField* f = at(key);
    if (f == nullptr || f->kind != events::FlatField::Kind::string) return std::nullopt;
    return f->text;
  }
  std::optional<std::int64_t> integer(std::string_view key) const {
    const events::FlatField* f = at(key);
    if (f == nullptr || f->kind != events::FlatField::Kind::integer) return std::nullopt;
    return f->number;
  }
  std::optional<std::uint64_t> decimal(std::string_view key) const {
    const auto s = string(key);
    return s ? stats::parse_decimal_u64(*s) : std::nullopt;
  }
  bool is_null(std::string_view key) const {
    const events::FlatField* f = at(key);
    return f != nullptr && f->kind == events::FlatField::Kind::null;
  }
  std::optional<bool> boolean(std::string_view key) const {
    const events::FlatField* f = at(key);
    if (f == nullptr || f->kind != events::FlatField::Kind::boolean) return std::nullopt;
    return f->number != 0;
  }

 private:
  // By length first: most keys differ in length, so a field's slot costs one or two compares
  // (and a literal's folds away at compile time).
  static constexpr int kSlots = 25;
  static constexpr int slot_of(std::string_view k) {
    switch (k.size()) {
      case 2:
        return k == "fd" ? 0 : -1;
      case 3:
        return k == "pid" ? 1 : k == "tid" ? 2 : -1;
      case 4:
        return k == "t_ns" ? 3 : k == "name" ? 4 : k == "path" ? 5 : -1;
      case 5:
        return k == "errno" ? 6 : k == "stack" ? 16 : k == "phase" ? 22 : k == "value" ? 23 : -1;
      case 6:
        return k == "result" ? 7 : -1;
      case 7:
        return k == "span_id" ? 8 : k == "syscall" ? 9 : k == "request" ? 10 : -1;
      case 8:
        return k == "woken_by" ? 17 : k == "woken_ns" ? 24 : -1;
      case 9:
        return k == "parent_id"   ? 11
               : k == "waker_pid" ? 18
               : k == "waker_tid" ? 19
               : k == "in_kernel" ? 20
                                  : -1;
      case 10:
        return k == "generation" ? 12 : -1;
      case 11:
        return k == "duration_ns" ? 13 : k == "thread_role" ? 14 : k == "stack_error" ? 21 : -1;
      case 16:
        return k == "start_time_ticks" ? 15 : -1;
      default:
        return -1;
    }
  }
  const events::FlatField* at(std::string_view key) const {
    const int slot = slot_of(key);
    return slot < 0 ? nullptr : slots_[slot];
  }
  const events::FlatField* slots_[kSlots] = {};
};

std::optional<RecordType> shown_type(std::string_view type) {
  if (type == "syscall") return RecordType::syscall;
  if (type == "span_begin") return RecordType::span_begin;
  if (type == "span_end") return RecordType::span_end;
  if (type == "gc_begin") return RecordType::gc_begin;
  if (type == "gc_end") return RecordType::gc_end;
  if (type == "phase") return RecordType::phase;
  if (type == "cpu_sample") return RecordType::cpu_sample;
  if (type == "counter") return RecordType::counter;
  return std::nullopt;
}

// The fields of each shown type past the common ones; the name of the first missing field, or
// null.
template <class Fields>
const char* fill_span_begin(const Fields& f, RawEvent& e) {
  const auto parent = f.string("parent_id");
  if (!parent && !f.is_null("parent_id")) return "parent_id";
  e.parent_id = parent.value_or(std::string_view{});
  const auto name = f.string("name");
  if (!name) return "name";
  e.name = *name;
  return nullptr;
}

template <class Fields>
const char* fill_counter(const Fields& f, RawEvent& e) {
  const auto name = f.string("name");
  const auto value = f.string("value");  // a signed decimal string (docs/events.md)
  if (!name) return "name";
  if (!value) return "value";
  const auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), e.value);
  if (ec != std::errc() || end != value->data() + value->size()) return "value";
  e.name = *name;
  return nullptr;
}

template <class Fields>
const char* fill_syscall(const Fields& f, RawEvent& e) {
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
  e.phase = f.string("phase");
  e.woken_by = f.string("woken_by");
  e.waker_pid = f.integer("waker_pid");
  e.waker_tid = f.integer("waker_tid");
  e.woken_ns = f.decimal("woken_ns");
  return nullptr;
}

template <class Fields>
const char* fill_sample(const Fields& f, RawEvent& e) {
  const auto in_kernel = f.boolean("in_kernel");
  if (!in_kernel) return "in_kernel";
  e.in_kernel = *in_kernel;
  e.phase = f.string("phase");
  e.stack = f.string("stack");
  e.stack_error = f.string("stack_error");
  if (!e.stack && !e.stack_error) return "stack";
  e.bridge_writer = f.string("thread_role") == std::string_view("bridge_writer");
  return nullptr;
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
    case RecordType::span_begin:
      if (const char* missing = fill_span_begin(f, e)) return missing;
      [[fallthrough]];
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
    case RecordType::counter:
      return fill_counter(f, e);
    case RecordType::syscall:
      return fill_syscall(f, e);
    case RecordType::cpu_sample:
      return fill_sample(f, e);
  }
  return nullptr;
}

class FileReader {
 public:
  FileReader(const std::string& path, RunRecordsRead& out,
             const std::function<void(const RawEvent&)>& on_event, const bool* stop)
      : path_(path), out_(out), on_event_(on_event), stop_(stop) {}

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
    if (!out_.error.empty() || (stop_ && *stop_)) return false;
    if (line.empty()) {
      fail(number, "an empty line (a raw file is one JSON object a line)");
      return false;
    }
    // The common case, a flat record, is read without building a document.
    if (flat_.parse(line) && flat_.string("kind") == std::string_view("record")) {
      return record(number, SweptFields(flat_), flat_.string("type"));
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
  const bool* stop_;
  events::FlatRecord flat_;
  RawEvent event_;
};

}  // namespace

RunRecordsRead read_run_records(const RunInput& run,
                                const std::function<void(const RawEvent&)>& on_event,
                                const bool* stop) {
  RunRecordsRead out;
  for (const auto& path : run.bridge_files) {
    FileReader(path, out, on_event, stop).read();
    if (!out.error.empty() || (stop && *stop)) return out;
  }
  if (run.syscall_file) FileReader(*run.syscall_file, out, on_event, stop).read();
  return out;
}

}  // namespace jbench::exports
