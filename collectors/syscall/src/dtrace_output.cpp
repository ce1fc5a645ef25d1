#include "dtrace_output.h"

#include <cctype>
#include <charconv>

#include "dtrace_script.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

constexpr std::size_t kMaxErrorsQuoted = 3;

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// (pid, phase, call, role) of an aggregation line, checked against the phases, the call table
// and the roles.
std::optional<TotalsKey> totals_key(Fields& f) {
  TotalsKey k;
  unsigned role = 0;
  if (!f.number(k.pid) || !f.number(k.phase) || !f.number(k.call) || !f.number(role)) {
    return std::nullopt;
  }
  if (k.phase < 0 || k.phase >= kPhaseCount || !call_by_id(k.call) || role > 1) {
    return std::nullopt;
  }
  k.role = thread_role_of(role);
  return k;
}

}  // namespace

void DtraceReader::line(std::string_view text) {
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  if (histogram_) {
    histogram_row(text);
    return;
  }
  if (stack_ && stack_row(text)) return;
  stack_ = nullptr;
  if (text.empty()) return;  // printa separates aggregations by blank lines
  if (text.starts_with("X ")) {
    sample(text);
    return;
  }
  if (text.starts_with("A ")) {
    aggregation(text);
    return;
  }
  lines_.text(text, text);
}

void DtraceReader::aggregation(std::string_view text) {
  Fields f(text);
  f.next();
  const auto name = f.next();
  std::optional<TotalsKey> key = totals_key(f);
  if (!name || !key) {
    lines_.malformed(text);
    return;
  }
  if (*name == "h") {  // quantize() prints its rows after the line, the value field empty
    if (!trimmed(f.rest().value_or("")).empty()) {
      lines_.malformed(text);
      return;
    }
    histogram_ = key;
    return;
  }
  const bool by_request = *name == "q" || *name == "qe";
  std::uint64_t request = 0;
  std::uint64_t value = 0;
  if ((by_request && !f.number(request)) || !f.number(value) || !f.at_end()) {
    lines_.malformed(text);
    return;
  }
  Totals& t = lines_.observations().totals[*key];
  if (*name == "t") {
    t.total_ns = value;
  } else if (*name == "x") {
    t.max_ns = value;
  } else if (*name == "r") {
    t.errors = value;
  } else if (*name == "q") {
    t.requests[request] = value;
  } else if (*name == "qe") {
    if (value > 0) t.request_errors[request] = value;
  } else {
    lines_.malformed(text);
  }
}

// quantize()'s rows: a header ("value  --- Distribution --- count"), then "<lower bound> |@@@
// <count>" per power of two, then a blank line that ends them.
void DtraceReader::histogram_row(std::string_view text) {
  const std::string_view row = trimmed(text);
  if (row.empty()) {
    histogram_.reset();
    return;
  }
  if (row.starts_with("value")) return;
  const auto bar = row.find('|');
  if (bar == std::string_view::npos) {
    lines_.malformed(text);
    return;
  }
  Fields bound(trimmed(row.substr(0, bar)));
  Fields count(trimmed(row.substr(row.find_last_of(" @|") + 1)));
  std::int64_t lower = 0;
  std::uint64_t n = 0;
  if (!bound.number(lower) || !count.number(n) || lower < 0) {
    lines_.malformed(text);
    return;
  }
  if (n > 0) {
    Totals& t = lines_.observations().totals[*histogram_];
    t.log2_buckets[lower] += n;
    t.count += n;  // every call is in one bucket: the histogram counts them
  }
}

DtraceFrame parse_dtrace_frame(std::string_view row) {
  DtraceFrame f;
  const auto tick = row.find('`');
  if (tick != std::string_view::npos) {
    f.module = std::string(row.substr(0, tick));
    row.remove_prefix(tick + 1);
  }
  if (row.starts_with("0x")) {
    std::from_chars(row.data() + 2, row.data() + row.size(), f.address, 16);
    return f;
  }
  f.symbol = std::string(row.substr(0, row.rfind("+0x")));
  return f;
}

void DtraceReader::sample(std::string_view text) {
  Fields f(text);
  f.next();
  CpuSample s;
  unsigned role = 0, in_kernel = 0;
  if (!f.number(s.pid) || !f.number(s.tid) || !f.number(s.t_ns) || !f.number(s.phase) ||
      !f.number(role) || !f.number(in_kernel) || !f.at_end() || s.phase < 0 ||
      s.phase >= kPhaseCount || role > 1 || in_kernel > 1) {
    lines_.malformed(text);
    return;
  }
  s.role = thread_role_of(role);
  s.in_kernel = in_kernel == 1;
  ProgramObservations& obs = lines_.observations();
  obs.samples.push_back(std::move(s));
  stack_ = &obs.samples.back();
}

// A row of the current sample's stack: the blank line ustack() starts with, or an indented
// frame. Anything else ends the stack (and is read as a line of its own).
bool DtraceReader::stack_row(std::string_view text) {
  if (text.empty()) return stack_->frames.empty();
  if (text.front() != ' ') return false;
  const std::string_view frame = trimmed(text);
  if (frame.empty()) return false;
  stack_->frames.emplace_back(frame);
  return true;
}

void DtraceReader::stderr_line(std::string_view text) {
  Fields f(trimmed(text));
  if (f.next() != "dtrace:") return;
  std::uint64_t n = 0;
  Fields counted = f;
  if (counted.number(n)) {
    const std::string_view rest = counted.rest().value_or("");
    if (rest.find("drops") != std::string_view::npos) lines_.observations().lost += n;
    return;
  }
  if (trimmed(text).find("dtrace: error on enabled probe") == 0) {
    ++lines_.observations().lost;
    if (errors_.size() < kMaxErrorsQuoted) errors_.emplace_back(trimmed(text).substr(0, 300));
  }
}

ProgramObservations DtraceReader::finish() {
  if (histogram_) histogram_.reset();  // the output ended inside a histogram: its rows are read
  stack_ = nullptr;
  return lines_.finish(kDtraceStringLimit);
}

}  // namespace jbench::collectors::syscall_detail
