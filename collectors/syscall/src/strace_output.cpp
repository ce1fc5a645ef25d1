#include "strace_output.h"

#include <cctype>
#include <charconv>

#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {
namespace {

constexpr std::string_view kUnfinished = " <unfinished ...>";
constexpr std::string_view kDetached = " <detached ...>";

bool is_digit(char c) { return c >= '0' && c <= '9'; }

constexpr std::uint64_t kCloneThread = 0x10000;  // CLONE_THREAD

bool is_creation_call(std::string_view call) {
  for (const char* c : kCreationCalls) {
    if (call == c) return true;
  }
  return false;
}

// "1795952986.909241010" (seconds.fraction, any number of fraction digits up to 9) -> ns.
std::optional<std::uint64_t> seconds_to_ns(std::string_view text) {
  const auto dot = text.find('.');
  std::uint64_t seconds = 0;
  const std::string_view whole = text.substr(0, dot);
  auto [end, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), seconds);
  if (ec != std::errc() || end != whole.data() + whole.size() || whole.empty()) {
    return std::nullopt;
  }
  std::uint64_t fraction = 0;
  if (dot != std::string_view::npos) {
    const std::string_view digits = text.substr(dot + 1);
    if (digits.empty() || digits.size() > 9) return std::nullopt;
    for (char c : digits) {
      if (!is_digit(c)) return std::nullopt;
      fraction = fraction * 10 + static_cast<std::uint64_t>(c - '0');
    }
    for (std::size_t i = digits.size(); i < 9; ++i) fraction *= 10;
  }
  return seconds * 1'000'000'000ULL + fraction;
}

// A decimal or 0x-hex integer at the start of `text`; `used` gets its length.
std::optional<std::int64_t> leading_integer(std::string_view text, std::size_t& used) {
  bool negative = false;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') {
    negative = true;
    ++i;
  }
  int base = 10;
  if (text.substr(i).starts_with("0x")) {
    base = 16;
    i += 2;
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data() + i, text.data() + text.size(), value, base);
  if (ec != std::errc() || end == text.data() + i) return std::nullopt;
  used = static_cast<std::size_t>(end - text.data());
  const auto v = static_cast<std::int64_t>(value);
  return negative ? -v : v;
}

// "3</tmp/x.dat>" -> fd 3, path "/tmp/x.dat" (the part in <> is what -y resolved).
struct Descriptor {
  std::int64_t fd = -1;
  std::optional<std::string> path;
  std::size_t used = 0;
};
std::optional<Descriptor> leading_descriptor(std::string_view text) {
  Descriptor d;
  std::size_t used = 0;
  auto fd = leading_integer(text, used);
  if (!fd) return std::nullopt;
  d.fd = *fd;
  d.used = used;
  if (used < text.size() && text[used] == '<') {
    // The path ends at the '>' that closes the argument (followed by ", " or ")" or the end).
    std::size_t close = std::string_view::npos;
    for (std::size_t i = used + 1; i < text.size(); ++i) {
      if (text[i] != '>') continue;
      const std::string_view after = text.substr(i + 1);
      if (after.empty() || after.starts_with(", ") || after.starts_with(")") ||
          after.starts_with(" ")) {
        close = i;
        break;
      }
    }
    if (close == std::string_view::npos) return std::nullopt;
    d.path = std::string(text.substr(used + 1, close - used - 1));
    d.used = close + 1;
  }
  return d;
}

// The argument after the first ", " at nesting depth 0 (strings and braces skipped).
std::optional<std::string_view> second_argument(std::string_view args) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const char c = args[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[' || c == '(') {
      ++depth;
    } else if (c == '}' || c == ']' || c == ')') {
      --depth;
    } else if (c == ',' && depth == 0 && i + 1 < args.size() && args[i + 1] == ' ') {
      return args.substr(i + 2);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> strace_unquote(std::string_view text, std::size_t& end,
                                          bool& truncated) {
  if (text.empty() || text[0] != '"') return std::nullopt;
  std::string out;
  for (std::size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      end = i + 1;
      truncated = text.substr(end).starts_with("...");
      if (truncated) end += 3;
      return out;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= text.size()) return std::nullopt;
    const char e = text[i];
    switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'v':
        out += '\v';
        break;
      case 'f':
        out += '\f';
        break;
      case '\\':
        out += '\\';
        break;
      case '"':
        out += '"';
        break;
      case 'x': {
        unsigned value = 0;
        const auto [p, ec] = std::from_chars(text.data() + i + 1,
                                             text.data() + std::min(text.size(), i + 3), value, 16);
        if (ec != std::errc()) return std::nullopt;
        i = static_cast<std::size_t>(p - text.data()) - 1;
        out += static_cast<char>(value);
        break;
      }
      default: {
        if (e < '0' || e > '7') return std::nullopt;
        unsigned value = 0;
        std::size_t k = i;
        while (k < text.size() && k < i + 3 && text[k] >= '0' && text[k] <= '7') {
          value = value * 8 + static_cast<unsigned>(text[k] - '0');
          ++k;
        }
        i = k - 1;
        out += static_cast<char>(value);
      }
    }
  }
  return std::nullopt;  // no closing quote
}

std::optional<pid_t> strace_line_tid(std::string_view line) {
  pid_t tid = 0;
  const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), tid);
  if (ec != std::errc() || end == line.data() || end == line.data() + line.size() || *end != ' ') {
    return std::nullopt;
  }
  return tid;
}

bool strace_line_is_canary(std::string_view line) {
  return line.find(kCanaryPrefix) != std::string_view::npos &&
         (line.find(" faccessat") != std::string_view::npos ||
          line.find(" access(") != std::string_view::npos);
}

void StraceReader::malformed(std::string_view raw) {
  ++obs_.malformed;
  if (obs_.malformed_examples.size() < kMaxMalformedExamples) {
    obs_.malformed_examples.emplace_back(raw.substr(0, 200));
  }
}

void StraceReader::line(std::string_view text) {
  if (text.empty()) return;
  const auto tid = strace_line_tid(text);
  // "<tid> <stamp> ...": strace pads the tid to a width of 5, so the gap may be several spaces.
  const std::size_t stamp_at = tid ? text.find_first_not_of(' ', text.find(' ')) : 0;
  const auto space =
      tid && stamp_at != std::string_view::npos ? text.find(' ', stamp_at) : std::string_view::npos;
  if (!tid || space == std::string_view::npos) {
    malformed(text);
    return;
  }
  const auto real_ns = seconds_to_ns(text.substr(stamp_at, space - stamp_at));
  if (!real_ns || static_cast<std::int64_t>(*real_ns) < offset_ns_) {
    malformed(text);
    return;
  }
  const std::uint64_t t_ns =
      static_cast<std::uint64_t>(static_cast<std::int64_t>(*real_ns) - offset_ns_);
  std::string_view rest = text.substr(space + 1);
  if (rest.starts_with("+++ ") || rest.starts_with("--- ")) {
    ++obs_.ignored;  // an exit or a signal
    return;
  }
  if (rest.starts_with("<... ")) {
    const auto resumed = rest.find(" resumed>");
    if (resumed == std::string_view::npos) {
      malformed(text);
      return;
    }
    const std::string_view call = rest.substr(5, resumed - 5);
    const std::string_view after = rest.substr(resumed + 9);
    auto it = pending_.find(*tid);
    if (it == pending_.end() || it->second.call != call) {
      ++obs_.in_progress;  // its first half came before strace attached
      return;
    }
    Pending p = std::move(it->second);
    pending_.erase(it);
    complete(*tid, p.t_ns, call, p.args + std::string(after), text);
    return;
  }
  const auto paren = rest.find('(');
  if (paren == std::string_view::npos || paren == 0) {
    malformed(text);
    return;
  }
  const std::string_view call = rest.substr(0, paren);
  for (char c : call) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      malformed(text);
      return;
    }
  }
  const std::string_view body = rest.substr(paren + 1);
  if (body.ends_with(kDetached)) {
    ++obs_.in_progress;  // strace let go of the thread inside this call
    return;
  }
  if (body.ends_with(kUnfinished)) {
    auto [it, fresh] = pending_.try_emplace(*tid);
    if (!fresh) ++obs_.in_progress;  // the earlier half never resumed
    it->second = Pending{std::string(call), t_ns,
                         std::string(body.substr(0, body.size() - kUnfinished.size()))};
    return;
  }
  complete(*tid, t_ns, call, body, text);
}

namespace {

// A canary call's path: the first argument of access, the second of the others; none when the
// line cannot be read.
std::optional<std::string> canary_path(std::string_view call, std::string_view args) {
  std::string_view path_arg = args;
  if (call != "access") {
    auto second = second_argument(args);
    if (!second) return std::nullopt;
    path_arg = *second;
  }
  std::size_t end = 0;
  bool cut = false;
  return strace_unquote(path_arg, end, cut);
}

// What a call returned and how long it took: "3</tmp/f> <0.000012>", "-1 ENOENT (No such file or
// directory) <0.000004>". False when the text cannot be read.
bool parse_outcome(std::string_view result, CallRecord& c) {
  // The duration closes the line: " <0.000012345>".
  const auto open = result.rfind(" <");
  if (open == std::string_view::npos || !result.ends_with(">")) return false;
  auto duration = seconds_to_ns(result.substr(open + 2, result.size() - open - 3));
  if (!duration) return false;
  c.duration_ns = *duration;
  result = result.substr(0, open);
  std::size_t used = 0;
  auto value = leading_integer(result, used);
  if (!value) return false;
  if (*value == -1 && result.size() > used + 1 && result[used] == ' ') {
    const std::string_view tail = result.substr(used + 1);
    auto error = errno_from_name(tail.substr(0, tail.find(' ')));
    if (!error) return false;
    c.result = -static_cast<std::int64_t>(*error);
    return true;
  }
  c.result = *value;
  if (used < result.size() && result[used] == '<') {
    if (auto d = leading_descriptor(result)) c.result_path = d->path;
  }
  return true;
}

// The arguments a traced call is decoded by: its path (and directory descriptor), or its
// descriptor (and request). False when they cannot be read.
bool parse_arguments(const TracedCall& traced, std::string_view args, CallRecord& c) {
  switch (traced.kind) {
    case ArgKind::path: {
      std::string_view path_arg = args;
      c.fd = -100;  // AT_FDCWD
      if (traced.has_dfd) {
        auto dfd = leading_descriptor(args);
        auto second = second_argument(args);
        if (!dfd || !second) return false;
        c.fd = dfd->fd;
        path_arg = *second;
      }
      std::size_t end = 0;
      auto path = strace_unquote(path_arg, end, c.path_truncated);
      if (!path) return false;
      c.path = std::move(*path);
      return true;
    }
    case ArgKind::fd:
    case ArgKind::fd_request: {
      auto d = leading_descriptor(args);
      if (!d) return false;
      c.fd = d->fd;
      if (d->path) c.path = *d->path;
      if (traced.kind == ArgKind::fd_request) {
        auto second = second_argument(args);
        std::size_t n = 0;
        auto request = second ? leading_integer(*second, n) : std::nullopt;
        if (!request) return false;
        c.request = static_cast<std::uint64_t>(*request);
      }
      return true;
    }
    case ArgKind::request:  // the compiled tracer's waits off the CPU: never in strace's output
      return true;
  }
  return true;
}

}  // namespace

void StraceReader::complete(pid_t tid, std::uint64_t t_ns, std::string_view call,
                            std::string_view rest, std::string_view raw) {
  // strace pads a short call out to a column before " = ": "vfork()      = 1585 <...>".
  const auto equals = rest.rfind(" = ");
  const auto close = equals == std::string_view::npos ? equals : rest.find_last_not_of(' ', equals);
  if (close == std::string_view::npos || rest[close] != ')') {
    malformed(raw);
    return;
  }
  const std::string_view args = rest.substr(0, close);
  const std::string_view result = rest.substr(equals + 3);
  if (is_canary_call(call)) {
    auto path = canary_path(call, args);
    if (!path) {
      malformed(raw);
    } else if (path->starts_with(kCanaryPrefix)) {
      obs_.canaries.push_back({0, tid, t_ns, *path});
    } else {
      ++obs_.ignored;
    }
    return;
  }
  if (is_creation_call(call)) {
    creation(tid, t_ns, call, args, result, raw);
    return;
  }
  const TracedCall* traced = find_call(call);
  if (!traced) {
    ++obs_.ignored;
    return;
  }
  if (result.starts_with("?")) {
    ++obs_.in_progress;  // the process ended during the call: it never returned
    return;
  }
  CallRecord c;
  c.tid = tid;
  c.t_ns = t_ns;
  c.call = traced->id;
  if (!parse_outcome(result, c) || !parse_arguments(*traced, args, c)) {
    malformed(raw);
    return;
  }
  obs_.calls.push_back(std::move(c));
}

// "clone(child_stack=NULL, flags=0x1200000|17, ...) = 23309 <...>", "clone3({flags=0x3d0f00,
// ...} => {...}, 88) = 23310 <...>", "vfork() = 23311 <...>": the child's thread id, and from the
// flags whether it is a thread of the creator's process.
void StraceReader::creation(pid_t tid, std::uint64_t t_ns, std::string_view call,
                            std::string_view args, std::string_view result, std::string_view raw) {
  if (result.starts_with("?")) {
    ++obs_.ignored;  // the creator ended inside the call
    return;
  }
  std::size_t used = 0;
  const auto child = leading_integer(result, used);
  if (!child) {
    malformed(raw);
    return;
  }
  if (*child <= 0) {
    ++obs_.ignored;  // failed: nothing was made
    return;
  }
  bool thread = false;
  if (call == "clone" || call == "clone3") {
    const auto at = args.find("flags=");
    std::size_t n = 0;
    const auto flags =
        at == std::string_view::npos ? std::nullopt : leading_integer(args.substr(at + 6), n);
    if (!flags) {
      malformed(raw);
      return;
    }
    thread = (static_cast<std::uint64_t>(*flags) & kCloneThread) != 0;
  }
  obs_.creations.push_back({tid, static_cast<pid_t>(*child), thread, t_ns});
}

StraceObservations StraceReader::finish() {
  obs_.in_progress += pending_.size();  // started, never resumed: still running at detach
  pending_.clear();
  return std::move(obs_);
}

}  // namespace jbench::collectors::syscall_detail
