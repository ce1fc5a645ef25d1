// The macOS `sip` check: what System Integrity Protection lets DTrace do, from `csrutil status`.
// Available when DTrace may trace protected processes: SIP disabled, or a Custom Configuration
// with DTrace Restrictions disabled (after `csrutil enable --without dtrace`).
#include <fmt/format.h>

#include "checks.h"
#include "jbench/doctor/parsers.h"
#include "jbench/proc/run_tool.h"

namespace jbench::doctor {
namespace {

constexpr const char* kWithoutDtrace =
    "boot into Recovery, run `csrutil enable --without dtrace` in its Terminal, reboot";

// The protections a Custom Configuration has turned off, DTrace's aside. "Apple Internal:
// disabled" is every configuration's normal state, not a relaxation.
std::string relaxed_protections(const SipStatus& s) {
  std::string out;
  for (const auto& p : s.protections) {
    if (p.value != "disabled" || p.name == "DTrace Restrictions" || p.name == "Apple Internal") {
      continue;
    }
    if (!out.empty()) out += ", ";
    out += p.name;
  }
  return out;
}

const char* dtrace_word(SipDtrace d) {
  switch (d) {
    case SipDtrace::allowed:
      return "allowed";
    case SipDtrace::restricted:
      return "restricted";
    case SipDtrace::unknown:
      break;
  }
  return "unknown";
}

}  // namespace

Check sip_check_for(const std::string& csrutil_out) {
  const SipStatus s = parse_csrutil_status(csrutil_out);
  const std::string custom = fmt::format(
      "System Integrity Protection is in a Custom Configuration ('{} (Custom Configuration)')",
      s.status);
  Check c;
  if (s.dtrace == SipDtrace::unknown) {
    c = Check::missing(
        "sip", "unreadable",
        "cannot tell from `csrutil status` whether SIP lets DTrace trace: " + s.why_unknown,
        "run `/usr/bin/csrutil status` and read it: jbench needs its 'System Integrity "
        "Protection status:' line and, in a Custom Configuration, its 'DTrace Restrictions:' line");
  } else if (s.dtrace == SipDtrace::allowed) {
    c = Check::ok("sip", s.custom_configuration
                             ? custom +
                                   " with DTrace Restrictions disabled: DTrace may trace "
                                   "protected processes"
                             : "System Integrity Protection is disabled: DTrace may trace every "
                               "process");
  } else if (!s.custom_configuration) {
    c = Check::missing("sip", "restricted_by_sip",
                       "System Integrity Protection is enabled: DTrace cannot trace protected "
                       "processes",
                       kWithoutDtrace);
  } else {
    // `csrutil enable --without dtrace` replaces the whole configuration: name what it would
    // turn back on unless the user repeats its --without flags.
    const std::string relaxed = relaxed_protections(s);
    c = Check::missing(
        "sip", "restricted_by_sip",
        custom + " with DTrace Restrictions enabled: DTrace cannot trace protected processes",
        relaxed.empty()
            ? std::string(kWithoutDtrace)
            : fmt::format("{} (the command replaces this configuration: to keep {} "
                          "disabled, add {} too)",
                          kWithoutDtrace, relaxed,
                          relaxed.find(',') == std::string::npos ? "its `--without` flag"
                                                                 : "their `--without` flags"));
  }
  c.facts["status"] = s.status;
  c.facts["custom_configuration"] = s.custom_configuration;
  c.facts["dtrace"] = dtrace_word(s.dtrace);
  nlohmann::json protections = nlohmann::json::object();
  for (const auto& p : s.protections) protections[p.name] = p.value;
  c.facts["protections"] = protections;
  return c;
}

Check check_sip(const ProbeContext& ctx) {
  const std::vector<std::string> argv{"/usr/bin/csrutil", "status"};
  const ToolRun run = proc::run_to_completion(argv, ctx.options.path_env, 5000);
  Check c;
  if (!run.started || run.timed_out || run.signaled) {
    const std::string why = !run.started    ? run.error
                            : run.timed_out ? "it timed out after 5 s"
                                            : fmt::format("it was killed by signal {}", run.signal);
    c = Check::missing(
        "sip", "unreadable", "cannot run `/usr/bin/csrutil status`: " + why,
        "run `/usr/bin/csrutil status` by hand (it ships with macOS 10.11 and later)");
  } else {
    c = sip_check_for(run.out);
  }
  c.evidence = evidence_of(argv, run, std::nullopt);
  return c;
}

}  // namespace jbench::doctor
