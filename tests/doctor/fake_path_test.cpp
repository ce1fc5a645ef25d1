// The tool checks and the backend choice against a PATH of fake tools (or of none): not
// installed, an attach that fails, one that only warns about RLIMIT_MEMLOCK, one that hangs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>

#include "fake_host.h"
#include "jbench/doctor/capabilities.h"

namespace jbench {
namespace {

using test::check_named;

std::string str(const nlohmann::json& j, const char* key) { return j.value(key, std::string()); }

// The syscall backend of each traced mode. A fake root has no kernel BTF, so the compiled tracer
// (libbpf) is always passed over here: what follows it is what these tests are about.
constexpr const char* kSyscallKeys[] = {"syscall_light", "syscall_full"};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

constexpr const char* kHealthyBpftrace =
    "if [ \"$1\" = --version ]; then echo 'bpftrace v0.17.0'; exit 0; fi\n"
    "echo 'ERROR: Unknown error -1: could not set RLIMIT_MEMLOCK for bpftrace.' >&2\n"
    "echo 'Attaching 1 probe...'\n"
    "echo 'jbench-attach-ok'\n";

TEST(DoctorFakePath, NoToolsOnPathMeansNoBackendAndTheRemediation) {
  test::FakeRoot root;
  test::FakeTools empty;
  const auto caps =
      probe_capabilities({.root = root.path(), .path_env = empty.path(), .dtrace_override = ""});
  for (const char* tool : {"bpftrace", "strace", "dtrace"}) {
    const auto c = check_named(caps, tool);
    EXPECT_EQ(str(c, "reason_code"), "not_installed") << tool;
    // DTrace is not in Debian: it is built from source (ci/dtrace-linux.sh).
    const std::string how =
        std::string(tool) == "dtrace" ? "ci/dtrace-linux.sh" : "apt-get install";
    EXPECT_TRUE(contains(str(c, "remediation"), how)) << c.dump(2);
  }
  for (const char* key : kSyscallKeys) {
    const auto& syscall = caps["backends"][key];
    EXPECT_TRUE(syscall["chosen"].is_null()) << key;
    EXPECT_TRUE(contains(str(syscall, "remediation"), "apt-get install bpftrace")) << key;
    EXPECT_TRUE(contains(str(syscall, "remediation"), "apt-get install strace")) << key;
  }
  EXPECT_TRUE(caps["backends"]["usdt"]["chosen"].is_null());
}

TEST(DoctorFakePath, WithoutBpftraceStraceIsTheFallback) {
  if (::access("/usr/bin/strace", X_OK) != 0) GTEST_SKIP() << "/usr/bin/strace is not installed";
  test::FakeRoot root;
  test::FakeTools tools;
  tools.link("strace", "/usr/bin/strace");
  const auto caps = probe_capabilities({.root = root.path(), .path_env = tools.path()});
  const auto strace = check_named(caps, "strace");
  if (strace["status"] != "available") {
    GTEST_SKIP() << "strace cannot trace here: " << strace.dump(2);
  }
  EXPECT_EQ(str(check_named(caps, "bpftrace"), "reason_code"), "not_installed");
  for (const char* key : kSyscallKeys) {
    const auto& syscall = caps["backends"][key];
    EXPECT_EQ(syscall["chosen"], "strace") << key;
    EXPECT_TRUE(contains(str(syscall, "why"), "bpftrace is blocked by bpftrace (not_installed)"));
    EXPECT_TRUE(contains(str(syscall, "why"), "overhead"));
    EXPECT_TRUE(contains(str(syscall, "remediation"), "apt-get install bpftrace"));
  }
}

TEST(DoctorFakePath, BpftraceThatExitsOneIsAttachFailedWithEvidence) {
  test::FakeRoot root;
  test::FakeTools tools;
  tools.script("bpftrace",
               "echo 'bpftrace v0.99.0'\n"
               "echo 'ERROR: Error attaching probe: BEGIN: Operation not permitted' >&2\n"
               "exit 1\n");
  const auto caps = probe_capabilities({.root = root.path(), .path_env = tools.path()});
  const auto c = check_named(caps, "bpftrace");
  EXPECT_EQ(str(c, "status"), "not_available");
  EXPECT_EQ(str(c, "reason_code"), "attach_failed");
  EXPECT_FALSE(str(c, "remediation").empty());
  const auto& ev = c["evidence"];
  EXPECT_EQ(ev["exit_code"], 1);
  EXPECT_EQ(ev["version"], "0.99.0");
  EXPECT_TRUE(contains(str(ev, "stderr_excerpt"), "Operation not permitted"));
  EXPECT_EQ(ev["errno"], "EPERM");
  EXPECT_TRUE(contains(str(ev, "command"), "jbench-attach-ok"));
  for (const char* key : kSyscallKeys) EXPECT_NE(caps["backends"][key]["chosen"], "bpftrace");
}

// bpftrace checks its uid, not its capabilities: granting capabilities is no fix for it.
TEST(DoctorFakePath, BpftraceThatRefusesNonRootIsToldToRunAsRootNotToSetcap) {
  test::FakeRoot root;
  test::FakeTools tools;
  tools.script("bpftrace",
               "echo 'bpftrace v0.17.0'\n"
               "echo 'ERROR: bpftrace currently only supports running as the root user.' >&2\n"
               "exit 1\n");
  const auto caps = probe_capabilities({.root = root.path(), .path_env = tools.path()});
  const auto c = check_named(caps, "bpftrace");
  EXPECT_EQ(str(c, "reason_code"), "attach_failed");
  EXPECT_TRUE(contains(str(c, "remediation"), "as root")) << str(c, "remediation");
  EXPECT_FALSE(contains(str(c, "remediation"), "setcap")) << str(c, "remediation");
}

TEST(DoctorFakePath, UnprivilegedAttachFailureNamesTheCapabilities) {
  test::FakeRoot root;
  root.status(1000, "0000000000000000");
  test::FakeTools tools;
  tools.script("bpftrace", "echo 'bpftrace v0.17.0'\nexit 1\n");
  const auto c =
      check_named(probe_capabilities({.root = root.path(), .path_env = tools.path()}), "bpftrace");
  EXPECT_EQ(str(c, "reason_code"), "attach_failed");
  EXPECT_TRUE(contains(str(c, "remediation"), "cap_bpf,cap_perfmon"));
}

TEST(DoctorFakePath, MemlockWarningAloneIsNotAFailure) {
  test::FakeRoot root;
  test::FakeTools tools;
  tools.script("bpftrace", kHealthyBpftrace);
  const auto caps = probe_capabilities({.root = root.path(), .path_env = tools.path()});
  const auto c = check_named(caps, "bpftrace");
  EXPECT_EQ(str(c, "status"), "available") << c.dump(2);
  EXPECT_TRUE(contains(str(c["evidence"], "stderr_excerpt"), "RLIMIT_MEMLOCK"));
  for (const char* key : kSyscallKeys) EXPECT_EQ(caps["backends"][key]["chosen"], "bpftrace");
  EXPECT_EQ(caps["backends"]["usdt"]["chosen"], "bpftrace");
}

TEST(DoctorFakePath, BpftraceWithoutSyscallTracepointsIsNotTheSyscallBackend) {
  test::FakeRoot root;
  root.remove("sys/kernel/tracing/events/syscalls");
  test::FakeTools tools;
  tools.script("bpftrace", kHealthyBpftrace);
  const auto caps = probe_capabilities({.root = root.path(), .path_env = tools.path()});
  for (const char* key : kSyscallKeys) {
    const auto& syscall = caps["backends"][key];
    EXPECT_NE(syscall["chosen"], "bpftrace") << key;
    EXPECT_EQ(syscall["alternatives"][1]["backend"], "bpftrace");
    EXPECT_EQ(syscall["alternatives"][1]["blocked_by"], "syscall_tracepoints");
    EXPECT_EQ(syscall["alternatives"][1]["reason_code"], "probe_not_found");
  }
  EXPECT_EQ(caps["backends"]["usdt"]["chosen"], "bpftrace");
}

TEST(DoctorFakePath, MarkerMissingIsAttachFailed) {
  test::FakeRoot root;
  test::FakeTools tools;
  tools.script("bpftrace", "echo 'bpftrace v0.17.0'\n");
  const auto c =
      check_named(probe_capabilities({.root = root.path(), .path_env = tools.path()}), "bpftrace");
  EXPECT_EQ(str(c, "reason_code"), "attach_failed");
  EXPECT_TRUE(contains(str(c, "detail"), "marker"));
}

TEST(DoctorFakePath, HangingAttachIsKilledAtTheDeadline) {
  test::FakeRoot root;
  test::FakeTools tools;
  tools.script("bpftrace",
               "if [ \"$1\" = --version ]; then echo 'bpftrace v0.17.0'; exit 0; fi\n"
               "exec /bin/sleep 30\n");
  const auto started = std::chrono::steady_clock::now();
  const auto caps =
      probe_capabilities({.root = root.path(), .path_env = tools.path(), .attach_timeout_ms = 300});
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  const auto c = check_named(caps, "bpftrace");
  EXPECT_EQ(str(c, "reason_code"), "attach_failed");
  EXPECT_EQ(c["evidence"]["timed_out"], true);
  EXPECT_TRUE(c["evidence"]["exit_code"].is_null());
  EXPECT_TRUE(contains(str(c, "detail"), "timed out after 300 ms"));
}

TEST(DoctorFakePath, NoAttachSaysNothingWasProven) {
  test::FakeRoot root;
  test::FakeTools tools;
  tools.script("bpftrace", "echo 'bpftrace v0.17.0'\nexit 1\n");
  const auto caps =
      probe_capabilities({.root = root.path(), .path_env = tools.path(), .try_attach = false});
  const auto c = check_named(caps, "bpftrace");
  EXPECT_EQ(str(c, "status"), "available");
  EXPECT_EQ(c["facts"]["attach_verified"], false);
  EXPECT_TRUE(contains(str(c, "detail"), "--no-attach"));
  EXPECT_EQ(caps["inputs"]["try_attach"], false);
}

TEST(DoctorFakePath, SystemtapDtraceIsNotATracer) {
  test::FakeRoot root;
  test::FakeTools tools;
  tools.script("dtrace",
               "echo 'Usage /usr/bin/dtrace [--help] [-h | -G] [-C [-I<Path>]] -s File.d' >&2\n"
               "echo 'Where -h builds a systemtap header file from the .d file' >&2\nexit 1\n");
  const auto c = check_named(probe_capabilities({.root = root.path(),
                                                 .path_env = tools.path(),
                                                 .try_attach = false,
                                                 .dtrace_override = ""}),
                             "dtrace");
  EXPECT_EQ(str(c, "reason_code"), "not_a_tracer");
  EXPECT_TRUE(contains(str(c, "remediation"), "ci/dtrace-linux.sh")) << str(c, "remediation");
  EXPECT_TRUE(contains(str(c, "detail"), "generator"));
}

// A DTrace that says so (`-V`) and whose BEGIN probe prints: what it needs on Linux is checked
// first (debugfs where DTrace for Linux reads tracefs, root), then the probe is the proof.
constexpr const char* kFakeDtrace =
    "if [ \"$1\" = -V ]; then echo 'dtrace: Oracle D 2.0'; exit 0; fi\n"
    "if [ \"$1\" = -l ]; then\n"
    "  echo '   ID   PROVIDER            MODULE                          FUNCTION NAME'\n"
    "  echo ' 3622    syscall           vmlinux                           pread64 entry'\n"
    "  echo '   40       proc           vmlinux                                   create'\n"
    "  echo '   60    profile                                                 profile-99'\n"
    "  echo ' 4162    pid5274 libjbench_bridge.so.1               jb_canary entry'\n"
    "  exit 0\n"
    "fi\n"
    "echo 'jbench-attach-ok'\n";

nlohmann::json dtrace_check(const test::FakeRoot& root, const test::FakeTools& tools) {
  return check_named(probe_capabilities({.root = root.path(),
                                         .path_env = tools.path(),
                                         .attach_timeout_ms = 5000,
                                         .dtrace_override = tools.path() + "/dtrace"}),
                     "dtrace");
}

TEST(DoctorFakePath, ARealDtraceIsProvenByItsBeginProbe) {
  test::FakeRoot root;
  root.mkdir("sys/kernel/debug/tracing");
  test::FakeTools tools;
  tools.script("dtrace", kFakeDtrace);
  const auto c = dtrace_check(root, tools);
  EXPECT_EQ(str(c, "status"), "available") << c.dump(2);
  EXPECT_EQ(c["facts"]["version"], "Oracle D 2.0");
  EXPECT_EQ(c["facts"]["attach_verified"], true);
  EXPECT_TRUE(contains(str(c, "detail"), "--syscall-backend dtrace"));
  // Providers by their probes; a process's own (pid5274) is not one of the host's.
  EXPECT_EQ(c["facts"]["providers"], nlohmann::json({{"syscall", 1}, {"proc", 1}, {"profile", 1}}));
}

TEST(DoctorFakePath, ADtraceWithoutAProviderJbenchUsesSaysWhich) {
  test::FakeRoot root;
  root.mkdir("sys/kernel/debug/tracing");
  test::FakeTools tools;
  tools.script(
      "dtrace",
      "if [ \"$1\" = -V ]; then echo 'dtrace: Oracle D 2.0'; exit 0; fi\n"
      "if [ \"$1\" = -l ]; then\n"
      "  echo ' 3622    syscall           vmlinux                           pread64 entry'\n"
      "  exit 0\n"
      "fi\n"
      "echo 'jbench-attach-ok'\n");
  const auto c = dtrace_check(root, tools);
  EXPECT_EQ(str(c, "reason_code"), "probe_not_found") << c.dump(2);
  EXPECT_TRUE(contains(str(c, "detail"), "no proc, profile provider")) << str(c, "detail");
}

TEST(DoctorFakePath, ADLibraryThatDoesNotCompileNamesTheLibraryDirectory) {
  test::FakeRoot root;
  root.mkdir("sys/kernel/debug/tracing");
  test::FakeTools tools;
  tools.script("dtrace",
               "if [ \"$1\" = -V ]; then echo 'dtrace: Oracle D 2.0'; exit 0; fi\n"
               "echo 'dtrace: invalid probe specifier BEGIN: \"/usr/lib64/dtrace/6.10/io.d\", "
               "line 134: failed to resolve `major_names: Unknown symbol name' >&2\nexit 1\n");
  const auto c = dtrace_check(root, tools);
  EXPECT_EQ(str(c, "reason_code"), "attach_failed") << c.dump(2);
  EXPECT_TRUE(contains(str(c, "remediation"), "DTRACE_OPT_SYSLIBDIR")) << str(c, "remediation");
}

TEST(DoctorFakePath, DtraceForLinuxWithoutDebugfsSaysToMountIt) {
  test::FakeRoot root;
  test::FakeTools tools;
  tools.script("dtrace", kFakeDtrace);
  const auto c = dtrace_check(root, tools);
  EXPECT_EQ(str(c, "reason_code"), "not_mounted") << c.dump(2);
  EXPECT_EQ(str(c, "remediation"), "sudo mount -t debugfs none /sys/kernel/debug");
}

TEST(DoctorFakePath, DtraceForLinuxAsAnotherUserIsDeniedPrivilege) {
  test::FakeRoot root;
  root.mkdir("sys/kernel/debug/tracing");
  root.status(1000, "0000000000000000");
  test::FakeTools tools;
  tools.script("dtrace", kFakeDtrace);
  EXPECT_EQ(str(dtrace_check(root, tools), "reason_code"), "denied_privilege");
}

TEST(DoctorFakePath, ADtraceWhoseProbeFailsIsAttachFailedWithEvidence) {
  test::FakeRoot root;
  root.mkdir("sys/kernel/debug/tracing");
  test::FakeTools tools;
  tools.script("dtrace",
               "if [ \"$1\" = -V ]; then echo 'dtrace: Oracle D 2.0'; exit 0; fi\n"
               "echo 'dtrace: failed to initialize dtrace: DTrace requires additional "
               "privileges' >&2\nexit 1\n");
  const auto c = dtrace_check(root, tools);
  EXPECT_EQ(str(c, "reason_code"), "attach_failed") << c.dump(2);
  EXPECT_TRUE(contains(c["evidence"].value("stderr_excerpt", ""), "additional privileges"));
}

TEST(DoctorFakePath, JbenchDtraceNamingSomethingElseIsNotInstalled) {
  test::FakeRoot root;
  test::FakeTools tools;
  tools.script("dtrace", "echo 'not a tracer'\n");
  const auto c = dtrace_check(root, tools);
  EXPECT_EQ(str(c, "reason_code"), "not_installed") << c.dump(2);
  EXPECT_TRUE(contains(str(c, "detail"), "does not say it is a DTrace"));
}

TEST(DoctorFakePath, StraceBlockedByPtraceScope) {
  if (::access("/usr/bin/strace", X_OK) != 0) GTEST_SKIP() << "/usr/bin/strace is not installed";
  test::FakeRoot root;
  root.file("proc/sys/kernel/yama/ptrace_scope", "3\n");
  test::FakeTools tools;
  tools.link("strace", "/usr/bin/strace");
  const auto caps = probe_capabilities({.root = root.path(), .path_env = tools.path()});
  const auto c = check_named(caps, "strace");
  EXPECT_EQ(str(c, "reason_code"), "disabled_by_sysctl");
  EXPECT_TRUE(contains(str(c, "remediation"), "ptrace_scope=1"));
  for (const char* key : kSyscallKeys) EXPECT_TRUE(caps["backends"][key]["chosen"].is_null());
}

}  // namespace
}  // namespace jbench
