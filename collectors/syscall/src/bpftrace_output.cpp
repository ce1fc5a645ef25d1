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
    return text ? scan_program_line(*text) : out;
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

void BpftraceReader::line(std::string_view text) {
  if (text.empty() || text == "\r") return;  // bpftrace separates the exit maps by blank lines
  if (text.starts_with(kPrintfPrefix)) {
    if (auto inner = printf_text(text)) {
      lines_.text(*inner, text);
    } else {
      lines_.malformed(text);
    }
    return;
  }
  auto j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("type") || !j["type"].is_string()) {
    lines_.malformed(text);
    return;
  }
  const std::string type = j["type"];
  if (type == "attached_probes") return;
  if (type == "lost_events") {
    const Json events = j.contains("data") ? j["data"].value("events", Json()) : Json();
    if (!events.is_number_unsigned()) {
      lines_.malformed(text);
      return;
    }
    lines_.observations().lost += events.get<std::uint64_t>();
    return;
  }
  if (type == "map" || type == "hist" || type == "stats") {
    map_line(type, text);
    return;
  }
  lines_.malformed(text);  // a record type this collector never asks for: say so, do not guess
}

void BpftraceReader::map_line(std::string_view type, std::string_view raw) {
  auto j = Json::parse(raw, nullptr, false);
  if (j.is_discarded() || !j.contains("data") || !j["data"].is_object() || j["data"].size() != 1) {
    lines_.malformed(raw);
    return;
  }
  const auto& [name, entries] = *j["data"].items().begin();
  if (!entries.is_object()) {
    lines_.malformed(raw);
    return;
  }
  lines_.observations().largest_map = std::max(lines_.observations().largest_map, entries.size());
  const bool by_request = name == "@q" || name == "@qe";
  for (const auto& [key, value] : entries.items()) {
    auto k = map_key(key, by_request ? 4 : 3);
    if (!k || !call_by_id(static_cast<int>((*k)[2])) || (*k)[1] < 0 || (*k)[1] >= kPhaseCount) {
      lines_.malformed(raw);
      continue;
    }
    Totals& t = lines_.observations().totals[{
        static_cast<pid_t>((*k)[0]), static_cast<int>((*k)[1]), static_cast<int>((*k)[2])}];
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
    if (!ok) lines_.malformed(raw);
  }
}

ProgramObservations BpftraceReader::finish() { return lines_.finish(kStringLimit); }

}  // namespace jbench::collectors::syscall_detail
