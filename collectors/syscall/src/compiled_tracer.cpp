// The compiled tracer's probe, the part every build has: the facts and the verdict. The load
// itself is compiled_tracer_probe.cpp (with libbpf) or compiled_tracer_absent.cpp (without).
#include "jbench/collectors/syscall/compiled_tracer.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "jbench/common/path_search.h"
#include "jbench/host_caps/privilege.h"
#include "jbench/host_caps/remediation.h"
#include "syscall_table.h"

namespace jbench::collectors {
namespace {

constexpr const char* kBtfFile = "/sys/kernel/btf/vmlinux";

std::string grant(const CompiledTracerFacts& facts) {
  return host_caps::kGrantBpfToJbench +
         (facts.executable.empty() ? std::string("\"$(command -v jbench)\"") : facts.executable);
}

}  // namespace

CompiledTracerFacts read_compiled_tracer_facts(const std::string& root) {
  CompiledTracerFacts f;
  std::error_code ec;
  f.btf_present = std::filesystem::is_regular_file(root + kBtfFile, ec);
  const host_caps::ProcessPrivilege p = host_caps::read_process_privilege(root);
  f.euid = p.euid;
  f.cap_bpf = p.has(host_caps::kCapBpf);
  f.cap_perfmon = p.has(host_caps::kCapPerfmon);
  f.cap_sys_admin = p.has(host_caps::kCapSysAdmin);
  f.bpf_privileged = p.bpf_privileged();
  f.privilege_why = p.why;
  rlimit memlock{};
  if (getrlimit(RLIMIT_MEMLOCK, &memlock) == 0 && memlock.rlim_cur != RLIM_INFINITY) {
    f.memlock_soft_bytes = static_cast<std::uint64_t>(memlock.rlim_cur);
  }
  struct utsname u {};
  if (uname(&u) == 0) f.kernel_release = u.release;
  f.executable = self_executable();
  return f;
}

CompiledTracerProbe judge_compiled_tracer(bool built, const CompiledTracerFacts& facts,
                                          const std::optional<CompiledTracerLoad>& load) {
  CompiledTracerProbe p;
  p.built = built;
  p.facts = facts;
  const auto refuse = [&p](const char* code, std::string reason, std::string remediation) {
    p.reason_code = code;
    p.reason = std::move(reason);
    p.remediation = std::move(remediation);
    return p;
  };
  if (!built) {
    return refuse("not_installed",
                  "this jbench was built without the compiled tracer: at configure time cmake "
                  "did not find libbpf (>= 1.0), bpftool, clang, llvm-strip and the kernel's BTF "
                  "together (cmake/JbenchBpf.cmake)",
                  "bash ci/install-deps.sh (libbpf-dev, bpftool, clang, llvm), then configure and "
                  "build jbench again on a kernel with /sys/kernel/btf/vmlinux; bpftrace or "
                  "strace trace meanwhile");
  }
  if (!facts.btf_present) {
    return refuse("probe_not_found",
                  fmt::format("no {}: the kernel exposes no BTF, which the compiled (CO-RE) "
                              "tracer needs to load",
                              kBtfFile),
                  "use a kernel built with CONFIG_DEBUG_INFO_BTF=y (see /boot/config-$(uname "
                  "-r)); bpftrace or strace trace without it");
  }
  if (load) {
    p.load_tried = true;
    if (load->loaded) {
      p.loaded = true;
      p.load_ns = load->load_ns;
      return p;
    }
    if (load->error != 0) p.errno_name = syscall_detail::errno_name(load->error);
    // The kernel answers EPERM for missing privilege; EACCES is also the verifier's refusal of
    // an unsafe program, so it means privilege only where the process lacks it.
    if (load->error == EPERM || !facts.bpf_privileged) {
      return refuse("denied_privilege", load->why, grant(facts));
    }
    return refuse("attach_failed", load->why,
                  "run `JBENCH_LIBBPF_LOG=1 jbench doctor` to see libbpf's and the verifier's "
                  "log; the tracer needs a kernel 5.8 or later with CONFIG_BPF_SYSCALL=y and "
                  "BPF task storage, ring buffers and raw tracepoints");
  }
  if (!facts.euid) {
    return refuse("unreadable", facts.privilege_why,
                  "make /proc/self/status readable (is /proc mounted?)");
  }
  if (!facts.bpf_privileged) {
    return refuse("denied_privilege",
                  fmt::format("euid {} without CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN: the "
                              "kernel refuses to load BPF tracing programs",
                              *facts.euid),
                  grant(facts));
  }
  return p;
}

}  // namespace jbench::collectors
