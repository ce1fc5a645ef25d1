#include "jbench/doctor/parsers.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <sstream>
#include <string_view>

#include "jbench/common/text.h"

namespace jbench::doctor {

std::optional<long> parse_sysctl_int(const std::string& text) {
  const std::string t = trim(text);
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(t.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return v;
}

std::string relevant_capability_names(std::uint64_t mask) {
  static const std::pair<int, const char*> kNames[] = {{kCapSysAdmin, "CAP_SYS_ADMIN"},
                                                       {kCapBpf, "CAP_BPF"},
                                                       {kCapPerfmon, "CAP_PERFMON"},
                                                       {kCapSysPtrace, "CAP_SYS_PTRACE"},
                                                       {kCapSysResource, "CAP_SYS_RESOURCE"}};
  std::string out;
  for (const auto& [cap, name] : kNames) {
    if (!has_capability(mask, cap)) continue;
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

std::optional<std::string> parse_lockdown(const std::string& text) {
  const auto open = text.find('[');
  const auto close = text.find(']', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos || close == open + 1) {
    return std::nullopt;
  }
  std::string mode = text.substr(open + 1, close - open - 1);
  if (mode != "none" && mode != "integrity" && mode != "confidentiality") return std::nullopt;
  return mode;
}

std::optional<std::string> parse_bpftrace_version(const std::string& out) {
  static const std::regex re(R"(bpftrace v?([0-9]+\.[0-9]+(\.[0-9]+)?[^\s]*))");
  std::smatch m;
  if (!std::regex_search(out, m, re)) return std::nullopt;
  return m[1].str();
}

std::optional<std::string> parse_strace_version(const std::string& out) {
  static const std::regex re(R"(strace -- version ([0-9]+(\.[0-9]+)*))");
  std::smatch m;
  if (!std::regex_search(out, m, re)) return std::nullopt;
  return m[1].str();
}

bool is_systemtap_dtrace(const std::string& output) {
  return output.find("systemtap") != std::string::npos ||
         output.find("[-h | -G]") != std::string::npos;
}

namespace {

constexpr std::string_view kSipStatusPrefix = "System Integrity Protection status:";
constexpr std::string_view kDtraceProtection = "DTrace Restrictions";

// "Name: value" of a line in the Configuration block; false when the line is not one.
bool protection_line(const std::string& line, SipProtection& out) {
  const std::string t = trim(line);
  const auto colon = t.find(':');
  if (colon == std::string::npos || colon == 0) return false;
  out.name = trim(t.substr(0, colon));
  out.value = trim(t.substr(colon + 1));
  return !out.name.empty() && !out.value.empty() && out.value.find(' ') == std::string::npos;
}

SipStatus sip_unknown(SipStatus s, std::string why) {
  s.dtrace = SipDtrace::unknown;
  s.why_unknown = std::move(why);
  return s;
}

}  // namespace

SipStatus parse_csrutil_status(const std::string& out) {
  SipStatus s;
  std::istringstream in(out);
  std::string line;
  std::string status_text;  // after the prefix, e.g. "enabled (Custom Configuration)."
  int status_lines = 0;
  bool in_configuration = false;
  while (std::getline(in, line)) {
    const std::string t = trim(line);
    if (t.rfind(kSipStatusPrefix, 0) == 0) {
      ++status_lines;
      status_text = trim(t.substr(kSipStatusPrefix.size()));
      in_configuration = false;
    } else if (t == "Configuration:") {
      in_configuration = true;
    } else if (in_configuration) {
      SipProtection p;
      if (protection_line(t, p)) {
        s.protections.push_back(std::move(p));
      } else if (!t.empty() || !s.protections.empty()) {
        in_configuration = false;  // the block ends at its first blank or foreign line
      }
    }
  }
  if (status_lines == 0) return sip_unknown(s, "no 'System Integrity Protection status:' line");
  if (status_lines > 1) {
    return sip_unknown(
        s, fmt::format("{} 'System Integrity Protection status:' lines, not one", status_lines));
  }

  std::string words = status_text;
  if (!words.empty() && words.back() == '.') words.pop_back();
  const auto space = words.find(' ');
  s.status = words.substr(0, space);
  const std::string note = space == std::string::npos ? "" : trim(words.substr(space + 1));
  s.custom_configuration = note == "(Custom Configuration)";
  const bool known_word = s.status == "enabled" || s.status == "disabled" || s.status == "unknown";
  if (!known_word || (!note.empty() && !s.custom_configuration)) {
    return sip_unknown(s, fmt::format("the status '{}' is none of 'enabled.', 'disabled.', "
                                      "'enabled (Custom Configuration).', "
                                      "'unknown (Custom Configuration).'",
                                      status_text));
  }

  const SipProtection* dtrace = nullptr;
  for (const auto& p : s.protections) {
    if (p.name != kDtraceProtection) continue;
    if (dtrace != nullptr) return sip_unknown(s, "two 'DTrace Restrictions' lines");
    dtrace = &p;
  }
  if (dtrace != nullptr && dtrace->value != "enabled" && dtrace->value != "disabled") {
    return sip_unknown(
        s, fmt::format("'DTrace Restrictions: {}' is neither enabled nor disabled", dtrace->value));
  }
  if (s.custom_configuration) {
    if (dtrace == nullptr) {
      return sip_unknown(s, "a Custom Configuration without a 'DTrace Restrictions' line");
    }
    s.dtrace = dtrace->value == "enabled" ? SipDtrace::restricted : SipDtrace::allowed;
    return s;
  }
  if (s.status == "unknown") {
    return sip_unknown(s,
                       "csrutil reports the status as unknown, with no Custom Configuration "
                       "to read the DTrace restriction from");
  }
  // A plain status: every protection follows it. A DTrace line saying otherwise is a
  // contradiction, not something to choose a side of.
  if (dtrace != nullptr && dtrace->value != s.status) {
    return sip_unknown(s, fmt::format("the status '{}' contradicts 'DTrace Restrictions: {}'",
                                      status_text, dtrace->value));
  }
  s.dtrace = s.status == "enabled" ? SipDtrace::restricted : SipDtrace::allowed;
  return s;
}

std::string errno_name_in(const std::string& stderr_text) {
  static const std::pair<int, const char*> kErrnos[] = {
      {EPERM, "EPERM"},   {EACCES, "EACCES"}, {ENOENT, "ENOENT"},
      {EINVAL, "EINVAL"}, {ENOSYS, "ENOSYS"}, {EBUSY, "EBUSY"},
      {ENOMEM, "ENOMEM"}, {E2BIG, "E2BIG"},   {ENOTSUP, "ENOTSUP"}};
  for (const auto& [value, name] : kErrnos) {
    if (stderr_text.find(name) != std::string::npos ||
        stderr_text.find(std::strerror(value)) != std::string::npos) {
      return name;
    }
  }
  return "";
}

std::string excerpt(const std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = text.rfind('\n', max_bytes);
  if (cut == std::string::npos || cut < max_bytes / 2) cut = max_bytes;
  // Never split a UTF-8 sequence: back up over continuation bytes.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "…";
}

std::string display_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& arg : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !arg.empty() && arg.find_first_not_of(
                                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789-_./=:,+@%") == std::string::npos;
    if (plain) {
      out += arg;
      continue;
    }
    out += '\'';
    for (char c : arg) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out += c;
      }
    }
    out += '\'';
  }
  return out;
}

}  // namespace jbench::doctor
