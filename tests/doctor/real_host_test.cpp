// The real host (no fake inputs): bpftrace and the compiled tracer really attach here, or the
// test is skipped with the reason; as an unprivileged user the compiled tracer is refused and
// the syscall backends fall back, saying why.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_host.h"
#include "jbench/collectors/syscall/compiled_tracer.h"
#include "jbench/doctor/capabilities.h"
#include "jbench_binary.h"

namespace jbench {
namespace {

TEST(DoctorRealHost, BpftraceAttaches) {
  const auto caps = probe_capabilities({});
  const auto c = test::check_named(caps, "bpftrace");
  if (c["status"] != "available") {
    GTEST_SKIP() << "bpftrace cannot attach on this host: " << c.value("reason_code", "") << " — "
                 << c.value("detail", "") << "; fix: " << c.value("remediation", "");
  }
  EXPECT_EQ(c["facts"]["attach_verified"], true);
  EXPECT_EQ(c["evidence"]["exit_code"], 0);
  EXPECT_FALSE(c["evidence"]["version"].is_null());
  // The usdt backend follows bpftrace whenever uprobes exist; the syscall one may fall back.
  if (test::check_named(caps, "uprobes")["status"] == "available") {
    EXPECT_EQ(caps["backends"]["usdt"]["chosen"], "bpftrace");
  }
  // Where the compiled tracer loads it is preferred; bpftrace is chosen otherwise, with the
  // tracepoints.
  const bool compiled = test::check_named(caps, "compiled_tracer")["status"] == "available";
  const bool tracepoints = test::check_named(caps, "syscall_tracepoints")["status"] == "available";
  for (const char* key : {"syscall_light", "syscall_full"}) {
    const auto& syscall = caps["backends"][key];
    if (compiled) {
      EXPECT_EQ(syscall["chosen"], "libbpf") << key;
    } else if (tracepoints) {
      EXPECT_EQ(syscall["chosen"], "bpftrace") << key;
    } else {
      EXPECT_NE(syscall["chosen"], "bpftrace") << key << ": " << syscall.dump(2);
    }
  }
}

// Why the compiled tracer cannot be proven here, or "" when it can (built, root, BTF).
std::string compiled_tracer_untestable() {
#ifndef JBENCH_HAVE_LIBBPF
  return "this jbench is built without the compiled tracer (cmake/JbenchBpf.cmake)";
#else
  if (::geteuid() != 0) return "not root: loading BPF tracing programs needs root";
  struct stat st {};
  if (::stat("/sys/kernel/btf/vmlinux", &st) != 0) return "no /sys/kernel/btf/vmlinux here";
  return {};
#endif
}

TEST(DoctorRealHost, CompiledTracerLoadsAsRootAndIsChosenForLightAndFull) {
  if (const std::string why = compiled_tracer_untestable(); !why.empty()) GTEST_SKIP() << why;
  // The probe itself: its own tracer, loaded, timed and closed; twice, as nothing is kept.
  for (int i = 0; i < 2; ++i) {
    const auto p = collectors::probe_compiled_tracer({});
    EXPECT_TRUE(p.usable()) << p.reason_code << ": " << p.reason;
    EXPECT_TRUE(p.loaded);
    EXPECT_GT(p.load_ns, 0U);
    EXPECT_EQ(p.facts.euid, 0);
    EXPECT_TRUE(p.facts.btf_present);
  }
  const auto caps = probe_capabilities({});
  const auto c = test::check_named(caps, "compiled_tracer");
  ASSERT_EQ(c["status"], "available") << c.dump(2);
  EXPECT_EQ(c["facts"]["attach_verified"], true);
  EXPECT_EQ(c["facts"]["built"], true);
  EXPECT_GT(std::stoull(c["facts"]["load_ns"].get<std::string>()), 0U);
  EXPECT_FALSE(c["facts"]["kernel_release"].get<std::string>().empty());
  for (const char* key : {"syscall_light", "syscall_full"}) {
    EXPECT_EQ(caps["backends"][key]["chosen"], "libbpf") << key;
    EXPECT_TRUE(caps["backends"][key]["why"].get<std::string>().find("loaded and attached here") !=
                std::string::npos);
  }
}

// `jbench doctor --json` as nobody (setpriv drops root and every capability): the kernel refuses
// the load, and light and full fall back with that reason.
TEST(DoctorRealHost, CompiledTracerIsDeniedToAnUnprivilegedUserAndTheChoiceFallsBack) {
  std::vector<std::string> argv;
  if (::geteuid() == 0) {
    if (::access("/usr/bin/setpriv", X_OK) != 0) {
      GTEST_SKIP() << "root, and no /usr/bin/setpriv (util-linux) to drop to nobody with";
    }
    argv = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"};
  }
  argv.push_back(test::jbench_binary());
  argv.insert(argv.end(), {"doctor", "--json"});
  test::ProcessOptions options;
  options.cwd = "/";  // nobody may not enter the test's directory
  const auto r = test::run_process(argv, options);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto caps = nlohmann::json::parse(r.out);
  const auto c = test::check_named(caps, "compiled_tracer");
  EXPECT_EQ(c["status"], "not_available");
  EXPECT_EQ(c["facts"]["attach_verified"], false);
  EXPECT_NE(c["facts"]["euid"], 0);
  EXPECT_EQ(c["facts"]["cap_bpf"], false);
#ifdef JBENCH_HAVE_LIBBPF
  const std::string code = "denied_privilege";
#else
  const std::string code = "not_installed";
#endif
  EXPECT_EQ(c["reason_code"], code) << c.dump(2);
  for (const char* key : {"syscall_light", "syscall_full"}) {
    const auto& b = caps["backends"][key];
    EXPECT_NE(b["chosen"], "libbpf") << key;
    EXPECT_EQ(b["alternatives"][0]["backend"], "libbpf");
    EXPECT_EQ(b["alternatives"][0]["usable"], false);
    EXPECT_EQ(b["alternatives"][0]["blocked_by"], "compiled_tracer");
    EXPECT_NE(
        b["why"].get<std::string>().find("libbpf is blocked by compiled_tracer (" + code + ")"),
        std::string::npos)
        << b.dump(2);
  }
}

TEST(DoctorRealHost, HostIsDescribed) {
  const auto caps = probe_capabilities({.root = "", .path_env = "", .try_attach = false});
  EXPECT_FALSE(caps["host"]["os"].get<std::string>().empty());
  EXPECT_FALSE(caps["host"]["arch"].get<std::string>().empty());
  EXPECT_FALSE(caps["host"]["kernel"].get<std::string>().empty());
  EXPECT_EQ(caps["inputs"]["root"], "");
}

}  // namespace
}  // namespace jbench
