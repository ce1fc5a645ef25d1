// The capability probe behind `jbench doctor`: what tracing this host can do, and, for each
// thing it cannot, why (a reason code from a closed set), the evidence (the command run, its exit
// code, the tool's version, a stderr excerpt) and the exact remediation. The same document is
// embedded in every bundle, so a reader can tell "nothing happened" from "nothing could be seen".
//
//   nlohmann::json caps = jbench::probe_capabilities({});                  // this host
//   nlohmann::json fake = jbench::probe_capabilities({.root = "/tmp/root",  // test inputs
//                                                     .path_env = "/tmp/bin",
//                                                     .try_attach = false});
//   const auto& light = caps["backends"]["syscall_light"];
//   if (light["chosen"].is_null()) { ... light["why"], light["remediation"] }
//
// Document (manifests/capabilities.schema.json, every check and reason code in docs/doctor.md):
//   {"schema": "jbench.capabilities", "schema_version": 1,
//    "inputs":  {"root", "path_env", "try_attach", "attach_timeout_ms"},
//    "host":    {"os", "arch", "kernel"},
//    "checks":  [{"name", "status": "available"|"not_available", "detail",
//                 "reason_code" + "remediation" (when not_available),
//                 "evidence": {"command", "exit_code", "version", "stderr_excerpt", ...}
//                 (when a command ran)} ...],
//    "backends": {"syscall_light": {"chosen": "libbpf"|"bpftrace"|"strace"|null, "why",
//                                   "alternatives": [...]},
//                 "syscall_full":  {...}, "usdt": {...}}}
//
// The probe never fails: a fact it cannot establish is a not_available check with its reason.
// It runs tools (bpftrace, strace, dtrace) with a deadline, without a shell, and never leaves a
// process behind; the compiled tracer it loads in-process is closed before it returns. It does not
// cache: call it once per session and keep the document.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace jbench {

struct ProbeOptions {
  // Prefix of every /proc and /sys path read ("" = the real filesystem). The host's os, arch and
  // kernel come from uname(2) whatever the root.
  std::string root;
  // The PATH searched for bpftrace, strace and dtrace, and given to them; empty = $PATH.
  std::string path_env;
  // Really attach (the compiled tracer, a bpftrace BEGIN probe, strace on a short child). Without
  // it, they are judged on being installed and on privilege, with facts.attach_verified false.
  bool try_attach = true;
  int attach_timeout_ms = 5000;
  // The DTrace to check instead of a search of PATH: nullopt reads $JBENCH_DTRACE (as a run
  // does), "" searches PATH only.
  std::optional<std::string> dtrace_override = std::nullopt;
};

nlohmann::json probe_capabilities(const ProbeOptions& options);

// The closed set of reason codes, in documentation order (docs/doctor.md).
const std::vector<std::string>& capability_reason_codes();

}  // namespace jbench
