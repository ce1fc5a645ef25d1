#include "jbench/collectors/instructions/callgrind_output.h"

#include <charconv>

#include "jbench/events/event_file.h"
#include "jbench/events/line_reader.h"

namespace jbench::collectors {
namespace {

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::optional<std::vector<std::uint64_t>> numbers(std::string_view s) {
  std::vector<std::uint64_t> out;
  for (std::string_view w : words(s)) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || end != w.data() + w.size()) return std::nullopt;
    out.push_back(v);
  }
  return out;
}

bool take(std::string_view line, std::string_view key, std::string_view& value) {
  if (!line.starts_with(key)) return false;
  value = line.substr(key.size());
  return true;
}

}  // namespace

std::optional<std::uint64_t> CallgrindTotals::instructions() const {
  for (std::size_t i = 0; i < events.size() && i < totals.size(); ++i) {
    if (events[i] == "Ir") return totals[i];
  }
  return std::nullopt;
}

std::optional<CallgrindTotals> parse_callgrind_totals(std::string_view text) {
  CallgrindTotals t;
  std::optional<std::vector<std::uint64_t>> totals, summary;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    std::string_view v;
    if (take(line, "events: ", v)) {
      for (std::string_view w : words(v)) t.events.emplace_back(w);
    } else if (take(line, "totals: ", v)) {
      totals = numbers(v);
    } else if (take(line, "summary: ", v)) {
      summary = numbers(v);
    } else if (take(line, "pid: ", v)) {
      std::from_chars(v.data(), v.data() + v.size(), t.pid);
    } else if (take(line, "cmd: ", v)) {
      t.command = std::string(v);
    }
  }
  if (t.events.empty() || !(totals || summary)) return std::nullopt;
  t.totals = totals ? *totals : *summary;
  return t;
}

std::optional<CallgrindTotals> read_callgrind_totals(const std::string& path, std::string& error) {
  // Only the header and the totals matter; the cost lines between them are read and dropped.
  std::string kept;
  const auto read = events::for_each_line(
      path, kMaxLineBytes,
      [&kept](std::size_t, std::string_view line) {
        for (std::string_view key : {"events: ", "totals: ", "summary: ", "pid: ", "cmd: "}) {
          if (line.starts_with(key)) {
            kept.append(line);
            kept += '\n';
          }
        }
        return true;
      },
      [](std::size_t) {});
  if (!read.error.empty()) {
    error = read.error;
    return std::nullopt;
  }
  auto totals = parse_callgrind_totals(kept);
  if (!totals) error = path + ": no events and totals lines (not callgrind output, or cut)";
  return totals;
}

std::vector<std::string> callgrind_command(const std::string& valgrind,
                                           const std::string& out_pattern) {
  return {valgrind,
          "--tool=callgrind",
          "--instr-atstart=no",
          "--collect-atstart=no",
          "--trace-children=yes",
          "--quiet",
          "--callgrind-out-file=" + out_pattern};
}

}  // namespace jbench::collectors
