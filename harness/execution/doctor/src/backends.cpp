// The backend chosen for each kind of event, from the checks alone: for system calls in each
// trace mode the compiled tracer when it loaded, else bpftrace when it attached and the kernel
// has the tracepoints, else the privilege-free strace, else none with the remediation.
#include <fmt/format.h>

#include <string>

#include "checks.h"

namespace jbench::doctor {
namespace {

struct Candidate {
  std::string backend;
  std::vector<const Check*> needs;  // every one must be available
  std::string cost;                 // what choosing it costs, said in `why`
};

nlohmann::json alternative(const Candidate& c) {
  nlohmann::json a = {{"backend", c.backend}, {"usable", true}};
  for (const Check* need : c.needs) {
    if (need->available) continue;
    a["usable"] = false;
    a["blocked_by"] = need->name;
    a["reason_code"] = need->reason_code;
    a["detail"] = need->detail;
    a["remediation"] = need->remediation;
    break;
  }
  return a;
}

// The first usable candidate, in preference order.
nlohmann::json choose(const std::string& kind, const std::vector<Candidate>& candidates) {
  nlohmann::json out = {{"chosen", nullptr}, {"alternatives", nlohmann::json::array()}};
  std::string fixes;
  for (const auto& c : candidates) {
    nlohmann::json a = alternative(c);
    if (a["usable"].get<bool>() && out["chosen"].is_null()) {
      out["chosen"] = c.backend;
      out["why"] = c.cost;
      if (!fixes.empty()) out["remediation"] = "to use the preferred backend: " + fixes;
    } else if (!a["usable"].get<bool>() && out["chosen"].is_null()) {
      if (!fixes.empty()) fixes += "; ";
      fixes += c.backend + ": " + a["remediation"].get<std::string>();
      const std::string blocked = c.backend + " is blocked by " +
                                  a["blocked_by"].get<std::string>() + " (" +
                                  a["reason_code"].get<std::string>() + ")";
      out["why"] = out.contains("why") ? out["why"].get<std::string>() + "; " + blocked : blocked;
    }
    out["alternatives"].push_back(std::move(a));
  }
  if (out["chosen"].is_null()) {
    out["why"] = "no backend can trace " + kind + " on this host: " + out["why"].get<std::string>();
    out["remediation"] = fixes;
  } else if (out.contains("remediation")) {
    // Say why the preferred one was passed over before what the fallback costs.
    std::string passed_over;
    for (const auto& a : out["alternatives"]) {
      if (a["usable"].get<bool>()) break;
      passed_over += a["backend"].get<std::string>() + " is blocked by " +
                     a["blocked_by"].get<std::string>() + " (" +
                     a["reason_code"].get<std::string>() + "); ";
    }
    out["why"] = passed_over + out["why"].get<std::string>();
  }
  return out;
}

}  // namespace

nlohmann::json choose_backends(const std::vector<Check>& checks) {
  const Check& compiled = find_check(checks, "compiled_tracer");
  const Check& bpftrace = find_check(checks, "bpftrace");
  const Check& strace = find_check(checks, "strace");
  const Check& tracepoints = find_check(checks, "syscall_tracepoints");
  const Check& uprobes = find_check(checks, "uprobes");
  const std::string compiled_cost =
      compiled.facts.value("attach_verified", false)
          ? fmt::format(
                "the compiled tracer (libbpf, CO-RE) loaded and attached here in {:.1f} "
                "ms, once per session; light: totals aggregated in the kernel; full: binary "
                "records through a ring buffer",
                std::stod(compiled.facts.value("load_ns", "0")) / 1e6)
          : "the compiled tracer is built in, with kernel BTF and the privilege (load not "
            "proven: --no-attach)";
  const std::string bpftrace_cost =
      bpftrace.facts.value("attach_verified", false)
          ? "bpftrace attached a probe here; in-kernel aggregation, low overhead"
          : "bpftrace is installed (attach not proven: --no-attach)";
  // Light and full have the same candidates; each is its own key because each trace mode's run
  // reads its own choice (syscall_light_host_check, syscall_full_host_check).
  const auto syscall = [&](const std::string& kind) {
    return choose(
        kind,
        {{"libbpf", {&compiled}, compiled_cost},
         {"bpftrace", {&bpftrace, &tracepoints}, bpftrace_cost + "; syscall tracepoints exist"},
         {"strace",
          {&strace},
          "strace (ptrace) needs no BPF privilege, but stops the target at every traced "
          "system call: a large observer overhead, so its timings are not comparable with "
          "the BPF backends'"}});
  };
  return {
      {"syscall_light", syscall("system calls (light: totals per call)")},
      {"syscall_full", syscall("system calls (full: a record per call)")},
      {"usdt", choose("USDT probes (the trace bridge)",
                      {{"bpftrace", {&bpftrace, &uprobes}, bpftrace_cost + "; uprobes exist"}})},
  };
}

}  // namespace jbench::doctor
