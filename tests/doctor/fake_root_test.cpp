// Every not_available path of the /proc and /sys checks, against a fake root: each gives its
// exact reason code and a remediation. No tool is run (an empty PATH, no attach).
#include <gtest/gtest.h>

#include "fake_host.h"
#include "jbench/doctor/capabilities.h"

namespace jbench {
namespace {

using test::check_named;

class DoctorFakeRoot : public ::testing::Test {
 protected:
  nlohmann::json probe() const {
    return probe_capabilities(
        {.root = root.path(), .path_env = empty_path.path(), .try_attach = false});
  }
  static void expect_not_available(const nlohmann::json& check, const std::string& reason) {
    EXPECT_EQ(check.value("status", ""), "not_available") << check.dump(2);
    EXPECT_EQ(check.value("reason_code", ""), reason) << check.dump(2);
    EXPECT_FALSE(check.value("remediation", "").empty()) << check.dump(2);
    EXPECT_FALSE(check.value("detail", "").empty()) << check.dump(2);
  }
  test::FakeRoot root;
  test::FakeTools empty_path;
};

TEST_F(DoctorFakeRoot, PermissiveHostHasEveryKernelFacility) {
  const auto caps = probe();
  for (const char* name :
       {"effective_uid", "capabilities", "perf_event_paranoid", "ptrace_scope", "unprivileged_bpf",
        "lockdown", "tracefs", "syscall_tracepoints", "uprobes"}) {
    EXPECT_EQ(check_named(caps, name).value("status", ""), "available") << name;
  }
  EXPECT_EQ(caps["inputs"]["root"], root.path());
}

TEST_F(DoctorFakeRoot, UnprivilegedProcess) {
  root.status(1000, "0000000000000000");
  const auto caps = probe();
  expect_not_available(check_named(caps, "effective_uid"), "denied_privilege");
  expect_not_available(check_named(caps, "capabilities"), "denied_privilege");
  EXPECT_NE(check_named(caps, "capabilities")["remediation"].get<std::string>().find("CAP_BPF"),
            std::string::npos);
  // Without CAP_PERFMON the sysctl applies: 2 keeps tracepoints from unprivileged processes.
  expect_not_available(check_named(caps, "perf_event_paranoid"), "disabled_by_sysctl");
  expect_not_available(check_named(caps, "unprivileged_bpf"), "disabled_by_sysctl");
}

TEST_F(DoctorFakeRoot, PrivilegeMakesTheSysctlsNotApply) {
  root.file("proc/sys/kernel/perf_event_paranoid", "3\n");
  root.file("proc/sys/kernel/unprivileged_bpf_disabled", "1\n");
  const auto caps = probe();
  EXPECT_EQ(check_named(caps, "perf_event_paranoid")["status"], "available");
  EXPECT_EQ(check_named(caps, "unprivileged_bpf")["status"], "available");
}

TEST_F(DoctorFakeRoot, UnprivilegedButPermissiveSysctls) {
  root.status(1000, "0000000000000000");
  root.file("proc/sys/kernel/perf_event_paranoid", "-1\n");
  root.file("proc/sys/kernel/unprivileged_bpf_disabled", "0\n");
  const auto caps = probe();
  EXPECT_EQ(check_named(caps, "perf_event_paranoid")["status"], "available");
  EXPECT_EQ(check_named(caps, "unprivileged_bpf")["status"], "available");
}

TEST_F(DoctorFakeRoot, PtraceScopes) {
  root.file("proc/sys/kernel/yama/ptrace_scope", "3\n");
  expect_not_available(check_named(probe(), "ptrace_scope"), "disabled_by_sysctl");
  root.file("proc/sys/kernel/yama/ptrace_scope", "2\n");
  EXPECT_EQ(check_named(probe(), "ptrace_scope")["status"], "available");  // CAP_SYS_PTRACE
  root.status(1000, "0000000000000000");
  expect_not_available(check_named(probe(), "ptrace_scope"), "denied_privilege");
  root.remove("proc/sys/kernel/yama");
  EXPECT_EQ(check_named(probe(), "ptrace_scope")["status"], "available");  // no Yama
}

// jbench attaches strace to running workers (strace -p): at scope 1 that is allowed only with
// CAP_SYS_PTRACE, as the syscall collector itself decides; the probe must not say otherwise.
TEST_F(DoctorFakeRoot, PtraceScopeOneAttachesOnlyWithCapSysPtrace) {
  root.file("proc/sys/kernel/yama/ptrace_scope", "1\n");
  EXPECT_EQ(check_named(probe(), "ptrace_scope")["status"], "available");  // CAP_SYS_PTRACE
  root.status(1000, "0000000000000000");
  const auto c = check_named(probe(), "ptrace_scope");
  expect_not_available(c, "denied_privilege");
  EXPECT_NE(c["remediation"].get<std::string>().find("ptrace_scope=0"), std::string::npos)
      << c.dump();
}

TEST_F(DoctorFakeRoot, Lockdown) {
  root.file("sys/kernel/security/lockdown", "none integrity [confidentiality]\n");
  expect_not_available(check_named(probe(), "lockdown"), "locked_down");
  root.file("sys/kernel/security/lockdown", "none [integrity] confidentiality\n");
  EXPECT_EQ(check_named(probe(), "lockdown")["status"], "available");
  root.file("sys/kernel/security/lockdown", "garbage\n");
  expect_not_available(check_named(probe(), "lockdown"), "unreadable");
}

TEST_F(DoctorFakeRoot, EmptyTracingDirectoryIsNotMounted) {
  root.remove("sys/kernel/tracing");
  root.mkdir("sys/kernel/tracing");
  root.remove("sys/bus/event_source/devices/uprobe");
  const auto caps = probe();
  expect_not_available(check_named(caps, "tracefs"), "not_mounted");
  EXPECT_NE(check_named(caps, "tracefs")["remediation"].get<std::string>().find("mount -t tracefs"),
            std::string::npos);
  expect_not_available(check_named(caps, "syscall_tracepoints"), "not_mounted");
  expect_not_available(check_named(caps, "uprobes"), "probe_not_found");
}

TEST_F(DoctorFakeRoot, TracefsUnderDebugfsIsFound) {
  root.remove("sys/kernel/tracing");
  root.mkdir("sys/kernel/debug/tracing/events/syscalls/sys_enter_openat");
  const auto caps = probe();
  EXPECT_EQ(check_named(caps, "tracefs")["status"], "available");
  EXPECT_EQ(check_named(caps, "syscall_tracepoints")["status"], "available");
}

TEST_F(DoctorFakeRoot, TracefsWithoutSyscallTracepoints) {
  root.remove("sys/kernel/tracing/events/syscalls");
  expect_not_available(check_named(probe(), "syscall_tracepoints"), "probe_not_found");
}

TEST_F(DoctorFakeRoot, MissingAndGarbledProcFiles) {
  root.remove("proc/sys/kernel/perf_event_paranoid");
  root.file("proc/sys/kernel/unprivileged_bpf_disabled", "yes\n");
  root.remove("proc/self/status");
  const auto caps = probe();
  expect_not_available(check_named(caps, "perf_event_paranoid"), "unreadable");
  expect_not_available(check_named(caps, "unprivileged_bpf"), "unreadable");
  expect_not_available(check_named(caps, "capabilities"), "unreadable");
  expect_not_available(check_named(caps, "effective_uid"), "unreadable");
}

}  // namespace
}  // namespace jbench
