#include "jbench/collectors/instructions/callgrind_output.h"

#include <charconv>
#include <unordered_set>

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

bool is_allocation_function(std::string_view name) {
  // Callgrind names a recursion level "malloc'2": the function is the same.
  name = name.substr(0, name.find('\''));
  for (std::string_view f :
       {"malloc", "calloc", "realloc", "reallocarray", "posix_memalign", "aligned_alloc",
        "memalign", "valloc", "pvalloc", "__libc_malloc", "__libc_calloc", "__libc_realloc",
        "__libc_memalign", "__libc_valloc", "__libc_pvalloc"}) {
    if (name == f) return true;
  }
  return false;
}

namespace {

// One pass over the file's lines, keeping only what jbench reads.
class TotalsReader {
 public:
  void line(std::string_view line) {
    std::string_view v;
    if (take(line, "cfn=", v)) {
      called_allocation_ = allocation_function(v);
    } else if (take(line, "fn=", v)) {
      allocation_function(v);  // only to learn the name behind its number
    } else if (take(line, "calls=", v)) {
      if (called_allocation_) t_.allocations += call_count(v);
    } else if (take(line, "events: ", v)) {
      for (std::string_view w : words(v)) t_.events.emplace_back(w);
    } else if (take(line, "totals: ", v)) {
      totals_ = numbers(v);
    } else if (take(line, "summary: ", v)) {
      summary_ = numbers(v);
    } else if (take(line, "pid: ", v)) {
      std::from_chars(v.data(), v.data() + v.size(), t_.pid);
    } else if (take(line, "cmd: ", v)) {
      t_.command = std::string(v);
    }
  }

  std::optional<CallgrindTotals> finish() {
    if (t_.events.empty() || !(totals_ || summary_)) return std::nullopt;
    t_.totals = totals_ ? *totals_ : *summary_;
    return std::move(t_);
  }

 private:
  // A function given as "(id) name" (the first time, with name compression), "(id)" (later) or
  // "name" (without compression): whether it is an allocation function.
  bool allocation_function(std::string_view spec) {
    if (!spec.starts_with('(')) return is_allocation_function(spec);
    const std::size_t close = spec.find(')');
    if (close == std::string_view::npos) return false;
    const std::string id(spec.substr(1, close - 1));
    if (close + 1 < spec.size()) {
      const bool allocation = is_allocation_function(spec.substr(close + 2));
      if (allocation) allocation_ids_.insert(id);
      return allocation;
    }
    return allocation_ids_.contains(id);
  }

  // "calls=<count> <target position>".
  static std::uint64_t call_count(std::string_view v) {
    std::uint64_t n = 0;
    std::from_chars(v.data(), v.data() + v.size(), n);
    return n;
  }

  CallgrindTotals t_;
  std::optional<std::vector<std::uint64_t>> totals_, summary_;
  std::unordered_set<std::string> allocation_ids_;
  bool called_allocation_ = false;
};

}  // namespace

std::optional<CallgrindTotals> parse_callgrind_totals(std::string_view text) {
  TotalsReader reader;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    reader.line(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  return reader.finish();
}

Result<CallgrindTotals> read_callgrind_totals(const std::string& path) {
  TotalsReader reader;
  const auto read = events::for_each_line(
      path, kMaxLineBytes,
      [&reader](std::size_t, std::string_view line) {
        reader.line(line);
        return true;
      },
      [](std::size_t) {});
  if (!read.error.empty()) return Error{read.error, 0, ErrorKind::input};
  auto totals = reader.finish();
  if (!totals) {
    return Error{path + ": no events and totals lines (not callgrind output, or cut)", 0,
                 ErrorKind::input};
  }
  return std::move(*totals);
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
