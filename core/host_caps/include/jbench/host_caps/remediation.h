// The one wording of each fix for a missing tracing capability, shared by `jbench doctor`'s
// checks and the collectors' not_available entries, so that both tell the user the same thing.
// Each consumer may add what only it knows (the doctor names its check, a collector its
// fallback) after these texts.
#pragma once

namespace jbench::host_caps {

inline constexpr const char* kInstallBpftrace =
    "sudo apt-get install bpftrace (Debian/Ubuntu; dnf install bpftrace on Fedora), or add its "
    "directory to PATH";
inline constexpr const char* kInstallStrace =
    "sudo apt-get install strace, or add its directory to PATH";
inline constexpr const char* kMountTracefs =
    "sudo mount -t tracefs nodev /sys/kernel/tracing (add it to /etc/fstab to keep it across "
    "reboots)";
inline constexpr const char* kSyscallTracepointsKernel =
    "use a kernel built with CONFIG_FTRACE_SYSCALLS=y (see /boot/config-$(uname -r))";
// bpftrace itself refuses every user but root ("bpftrace currently only supports running as the
// root user", v0.17), whatever capabilities it holds: for it, only root helps.
inline constexpr const char* kBpftraceAsRoot =
    "run jbench as root: bpftrace refuses to run as any other user, whatever capabilities it is "
    "given";
inline constexpr const char* kGrantBpf =
    "run as root, or grant CAP_BPF and CAP_PERFMON (kernel 5.8 or later): "
    "sudo setcap cap_bpf,cap_perfmon+ep \"$(command -v bpftrace)\"";
// The compiled syscall tracer is loaded by jbench itself, so the capabilities go to jbench: the
// path of the jbench executable follows this text.
inline constexpr const char* kGrantBpfToJbench =
    "run jbench as root, or grant jbench CAP_BPF and CAP_PERFMON (kernel 5.8 or later): "
    "sudo setcap cap_bpf,cap_perfmon+ep ";

}  // namespace jbench::host_caps
