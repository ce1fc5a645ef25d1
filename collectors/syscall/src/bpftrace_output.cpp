#include "bpftrace_output.h"

#include <charconv>
#include <nlohmann/json.hpp>
#include <optional>

#include "bpftrace_script.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

using Json = nlohmann::json;

constexpr std::string_view kPrintfPrefix = R"({"type": "printf", "data": ")";

// The text of a printf record without its final newline, or nullopt if the line is not one.
// Nearly every line is a plain one (no escapes but the final \n): it is cut out directly.
std::optional<std::string> printf_text(std::string_view line) {
  if (!line.starts_with(kPrintfPrefix) || !line.ends_with("\"}")) return std::nullopt;
  std::string_view body = line.substr(kPrintfPrefix.size());
  body.remove_suffix(2);
  if (body.ends_with("\\n") && body.find('\\') == body.size() - 2) {
    body.remove_suffix(2);
    return std::string(body);
  }
  auto j = Json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.contains("data") || !j["data"].is_string()) return std::nullopt;
  std::string text = j["data"].get<std::string>();
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// Space-separated fields; the last one may take the rest of the line (a path with spaces).
class Fields {
 public:
  explicit Fields(std::string_view text) : rest_(text) {}
  std::optional<std::string_view> next() {
    if (done_) return std::nullopt;
    const auto space = rest_.find(' ');
    std::string_view field = rest_.substr(0, space);
    if (space == std::string_view::npos) {
      done_ = true;
    } else {
      rest_.remove_prefix(space + 1);
    }
    return field;
  }
  std::optional<std::string_view> rest() {
    if (done_) return std::nullopt;
    done_ = true;
    return rest_;
  }
  template <typename T>
  bool number(T& out) {
    auto f = next();
    if (!f || f->empty()) return false;
    const auto [end, ec] = std::from_chars(f->data(), f->data() + f->size(), out);
    return ec == std::errc() && end == f->data() + f->size();
  }
  bool at_end() const { return done_; }

 private:
  std::string_view rest_;
  bool done_ = false;
};

std::optional<CanaryHit> parse_canary(Fields& f) {
  CanaryHit k;
  auto path = std::optional<std::string_view>{};
  if (!f.number(k.pid) || !f.number(k.tid) || !f.number(k.t_ns) || !(path = f.rest())) {
    return std::nullopt;
  }
  k.path = std::string(*path);
  return k;
}

// "pid,phase,call[,request]" -> numbers.
std::optional<std::vector<std::int64_t>> map_key(std::string_view key, std::size_t parts) {
  std::vector<std::int64_t> out;
  while (out.size() < parts) {
    const auto comma = key.find(',');
    const std::string_view part = key.substr(0, comma);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (ec != std::errc() || end != part.data() + part.size()) return std::nullopt;
    out.push_back(v);
    if (comma == std::string_view::npos) break;
    key.remove_prefix(comma + 1);
  }
  if (out.size() != parts) return std::nullopt;
  return out;
}

}  // namespace

LiveLine scan_bpftrace_line(std::string_view line) {
  LiveLine out;
  if (line.starts_with(kPrintfPrefix)) {
    // The per-call lines are the bulk: recognised by their first letter and skipped.
    const char letter = line.size() > kPrintfPrefix.size() ? line[kPrintfPrefix.size()] : '\0';
    if (letter != 'M' && letter != 'S' && letter != 'K' && letter != 'P') return out;
    auto text = printf_text(line);
    if (!text) return out;
    Fields f(*text);
    f.next();
    if (letter == 'M' && f.number(out.phase)) {
      out.kind = LiveLine::Kind::marker;
    } else if (letter == 'S' && f.number(out.sync)) {
      out.kind = LiveLine::Kind::sync;
    } else if (letter == 'K') {
      if (auto k = parse_canary(f)) {
        out.kind = LiveLine::Kind::canary;
        out.canary = std::move(*k);
      }
    } else if (letter == 'P' && f.number(out.pid)) {
      out.kind = LiveLine::Kind::process;
    }
    return out;
  }
  if (line.find("\"lost_events\"") != std::string_view::npos) {
    auto j = Json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.contains("data") && j["data"].is_object() &&
        j["data"].value("events", Json()).is_number_unsigned()) {
      out.kind = LiveLine::Kind::lost;
      out.lost = j["data"]["events"].get<std::uint64_t>();
    }
  }
  return out;
}

void BpftraceReader::malformed(std::string_view raw) {
  ++obs_.malformed;
  if (obs_.malformed_examples.size() < kMaxMalformedExamples) {
    obs_.malformed_examples.emplace_back(raw.substr(0, 200));
  }
}

void BpftraceReader::line(std::string_view text) {
  if (text.empty() || text == "\r") return;  // bpftrace separates the exit maps by blank lines
  if (text.starts_with(kPrintfPrefix)) {
    if (auto inner = printf_text(text)) {
      printf_line(*inner, text);
    } else {
      malformed(text);
    }
    return;
  }
  auto j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("type") || !j["type"].is_string()) {
    malformed(text);
    return;
  }
  const std::string type = j["type"];
  if (type == "attached_probes") return;
  if (type == "lost_events") {
    const Json events = j.contains("data") ? j["data"].value("events", Json()) : Json();
    if (!events.is_number_unsigned()) {
      malformed(text);
      return;
    }
    obs_.lost += events.get<std::uint64_t>();
    return;
  }
  if (type == "map" || type == "hist" || type == "stats") {
    map_line(type, text);
    return;
  }
  malformed(text);  // a record type this collector never asks for: say so, do not guess
}

void BpftraceReader::printf_line(std::string_view inner, std::string_view raw) {
  Fields f(inner);
  const auto tag = f.next();
  if (!tag || tag->size() != 1) {
    malformed(raw);
    return;
  }
  bool ok = false;
  switch ((*tag)[0]) {
    case 'B': {
      int version = 0;
      ok = f.number(version) && version == 1;
      obs_.began = obs_.began || ok;
      break;
    }
    case 'M': {
      PhaseMarker m;
      ok = f.number(m.phase) && f.number(m.t_ns) && m.phase >= 0 && m.phase < kPhaseCount;
      if (ok) obs_.markers.push_back(m);
      break;
    }
    case 'S': {
      int n = 0;
      std::uint64_t t = 0;
      ok = f.number(n) && f.number(t);
      break;
    }
    case 'J': {
      pid_t pid = 0;
      std::uint64_t t = 0;
      ok = f.number(pid) && f.number(t);
      if (ok) obs_.joined.push_back(pid);
      break;
    }
    case 'F': {
      ForkSeen s;
      ok = f.number(s.parent) && f.number(s.child) && f.number(s.t_ns);
      if (ok) obs_.forks.push_back(s);
      break;
    }
    case 'P': {
      ProcessSeen p;
      std::uint64_t start = 0;
      ok = f.number(p.pid) && f.number(start) && f.number(p.parent) && f.number(p.t_ns);
      p.start_boottime_ns = start;
      if (ok) obs_.processes.push_back(p);
      break;
    }
    case 'K': {
      auto k = parse_canary(f);
      ok = k.has_value();
      if (ok) obs_.canaries.push_back(std::move(*k));
      break;
    }
    case 'O': {
      pid_t tid = 0;
      std::uint64_t t = 0;
      std::optional<std::string_view> path;
      ok = f.number(tid) && f.number(t) && (path = f.rest()).has_value();
      if (ok) open_paths_[{tid, t}] = std::string(*path);
      break;
    }
    case 'C': {
      CallRecord c;
      std::int64_t ret = 0;
      std::uint64_t request = 0;
      FileIdentity file;
      ok = f.number(c.call) && f.number(c.pid) && f.number(c.tid) && f.number(c.t_ns) &&
           f.number(c.duration_ns) && f.number(c.phase) && f.number(c.fd) && f.number(ret) &&
           f.number(request) && f.number(file.major) && f.number(file.minor) &&
           f.number(file.inode) && f.at_end();
      const TracedCall* call = ok ? call_by_id(c.call) : nullptr;
      ok = ok && call && c.phase >= 0 && c.phase < kPhaseCount;
      if (ok) {
        c.result = ret;
        if (call->kind == ArgKind::fd_request) c.request = request;
        if (file.inode != 0) c.file = file;
        obs_.calls.push_back(std::move(c));
      }
      break;
    }
    default:
      break;
  }
  if (!ok) malformed(raw);
}

void BpftraceReader::map_line(std::string_view type, std::string_view raw) {
  auto j = Json::parse(raw, nullptr, false);
  if (j.is_discarded() || !j.contains("data") || !j["data"].is_object() || j["data"].size() != 1) {
    malformed(raw);
    return;
  }
  const auto& [name, entries] = *j["data"].items().begin();
  if (!entries.is_object()) {
    malformed(raw);
    return;
  }
  obs_.largest_map = std::max(obs_.largest_map, entries.size());
  const bool by_request = name == "@q" || name == "@qe";
  for (const auto& [key, value] : entries.items()) {
    auto k = map_key(key, by_request ? 4 : 3);
    if (!k || !call_by_id(static_cast<int>((*k)[2])) || (*k)[1] < 0 || (*k)[1] >= kPhaseCount) {
      malformed(raw);
      continue;
    }
    Totals& t = obs_.totals[{static_cast<pid_t>((*k)[0]), static_cast<int>((*k)[1]),
                             static_cast<int>((*k)[2])}];
    bool ok = true;
    if (type == "stats" && name == "@s") {
      ok = value.is_object() && value.value("count", Json()).is_number_unsigned() &&
           value.value("total", Json()).is_number_unsigned();
      if (ok) {
        t.count = value["count"].get<std::uint64_t>();
        t.total_ns = value["total"].get<std::uint64_t>();
      }
    } else if (type == "hist" && name == "@h") {
      ok = value.is_array();
      for (const auto& bucket : ok ? value : Json::array()) {
        if (!bucket.is_object() || !bucket.value("min", Json()).is_number_unsigned() ||
            !bucket.value("count", Json()).is_number_unsigned()) {
          ok = false;
          break;
        }
        const std::uint64_t n = bucket["count"].get<std::uint64_t>();
        if (n > 0) t.log2_buckets[bucket["min"].get<std::uint64_t>()] += n;
      }
    } else if (type == "map" && value.is_number_unsigned()) {
      const std::uint64_t v = value.get<std::uint64_t>();
      const std::uint64_t request = by_request ? static_cast<std::uint64_t>((*k)[3]) : 0;
      if (name == "@x") {
        t.max_ns = v;
      } else if (name == "@r") {
        t.errors = v;
      } else if (name == "@q") {
        t.requests[request] = v;
      } else if (name == "@qe") {
        t.request_errors[request] = v;
      } else {
        ok = false;
      }
    } else {
      ok = false;
    }
    if (!ok) malformed(raw);
  }
}

BpftraceObservations BpftraceReader::finish() {
  for (CallRecord& c : obs_.calls) {
    const TracedCall* call = call_by_id(c.call);
    if (!call || call->kind != ArgKind::path) continue;
    auto it = open_paths_.find({c.tid, c.t_ns});
    if (it == open_paths_.end()) continue;  // its line was lost: counted in `lost`
    c.path = std::move(it->second);
    c.path_truncated = c.path.size() >= kStringLimit - 1;
    open_paths_.erase(it);
  }
  return std::move(obs_);
}

}  // namespace jbench::collectors::syscall_detail
