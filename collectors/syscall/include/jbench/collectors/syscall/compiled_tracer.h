// Whether the compiled syscall tracer (libbpf, collectors/syscall/bpf/syscall_trace.bpf.c) can
// trace on this host, for `jbench doctor`: was this jbench built with it, and does the kernel
// let it load and attach here. The real proof is a load: the probe opens a short-lived tracer
// of its own, measures how long loading and attaching took, and closes it. It never touches the
// tracer a `jbench run` session keeps for its runs.
//
//   const CompiledTracerProbe p = probe_compiled_tracer({});          // this host, with a load
//   if (!p.usable()) { p.reason_code, p.reason, p.remediation }
//   probe_compiled_tracer({.root = fake, .try_load = false});        // judged on the facts only
//
// The reason codes are `jbench doctor`'s (docs/doctor.md): not_installed (built without it),
// probe_not_found (no kernel BTF), denied_privilege (EPERM, or EACCES without privilege, or no
// root / CAP_BPF + CAP_PERFMON / CAP_SYS_ADMIN when not loaded), attach_failed (a verifier
// refusal or any other load or attach error), unreadable (the privilege could not be read).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace jbench::collectors {

// What decides whether the tracer can load, read before any load.
struct CompiledTracerFacts {
  bool btf_present = false;  // <root>/sys/kernel/btf/vmlinux: CO-RE relocates against it
  std::optional<long> euid;  // from <root>/proc/self/status (nullopt: unreadable, see why)
  bool cap_bpf = false, cap_perfmon = false, cap_sys_admin = false;  // effective set
  bool bpf_privileged = false;  // CAP_SYS_ADMIN, or CAP_BPF with CAP_PERFMON
  std::string privilege_why;    // why euid and the capabilities could not be read
  std::optional<std::uint64_t> memlock_soft_bytes;  // RLIMIT_MEMLOCK soft limit; nullopt: unlimited
  std::string kernel_release;                       // uname -r
  std::string executable;  // this process's executable (/proc/self/exe): what setcap would name
};

// How a load went, when one was tried.
struct CompiledTracerLoad {
  bool loaded = false;
  std::uint64_t load_ns = 0;  // loading and attaching, when loaded
  std::string why;            // what the tracer said when it was not loaded
  int error = 0;              // the errno it was refused with; 0: none
};

struct CompiledTracerProbe {
  bool built = false;       // this jbench carries the compiled tracer (JBENCH_HAVE_LIBBPF)
  bool load_tried = false;  // false: judged on the facts alone (no BTF, or not asked to load)
  bool loaded = false;      // loaded and attached here (then closed)
  std::uint64_t load_ns = 0;
  std::string reason_code;     // "" when usable
  std::string reason;          // precise: what is missing, or what the kernel or libbpf said
  std::string errno_name;      // "EPERM" or "EACCES" when the refusal named one
  std::string remediation;     // when not usable
  std::string libbpf_version;  // "libbpf 1.1" when built
  CompiledTracerFacts facts;

  bool usable() const { return reason_code.empty(); }
};

struct CompiledTracerProbeOptions {
  std::string root;      // prefix of the /proc and /sys paths read ("" = the real filesystem)
  bool try_load = true;  // false: no load; judged on the build, BTF and privilege
};

CompiledTracerProbe probe_compiled_tracer(const CompiledTracerProbeOptions& options);

// The facts of this host (and of the process) under `root`.
CompiledTracerFacts read_compiled_tracer_facts(const std::string& root);

// Pure: the verdict from the build, the facts and a load (nullopt: none was tried). A load that
// succeeded is usable whatever the facts say; with none tried, the facts decide.
CompiledTracerProbe judge_compiled_tracer(bool built, const CompiledTracerFacts& facts,
                                          const std::optional<CompiledTracerLoad>& load);

}  // namespace jbench::collectors
