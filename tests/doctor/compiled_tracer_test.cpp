// The compiled syscall tracer in `jbench doctor`: the verdict from the facts and a load (pure),
// the check and backend choice it makes (a build without libbpf included, which this host cannot
// build), and the probe against fake roots, where it must not load into the real kernel.
#include "jbench/collectors/syscall/compiled_tracer.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "checks.h"
#include "fake_host.h"
#include "jbench/doctor/capabilities.h"
#include "jbench/doctor/capabilities_text.h"
#include "jbench/schema/json_schema.h"

namespace jbench {
namespace {

using collectors::CompiledTracerFacts;
using collectors::CompiledTracerLoad;
using collectors::judge_compiled_tracer;

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

CompiledTracerFacts root_facts() {
  CompiledTracerFacts f;
  f.btf_present = true;
  f.euid = 0;
  f.cap_bpf = f.cap_perfmon = f.cap_sys_admin = f.bpf_privileged = true;
  f.kernel_release = "6.1.0";
  f.executable = "/opt/jbench/bin/jbench";
  return f;
}

CompiledTracerFacts nobody_facts() {
  CompiledTracerFacts f = root_facts();
  f.euid = 65534;
  f.cap_bpf = f.cap_perfmon = f.cap_sys_admin = f.bpf_privileged = false;
  return f;
}

CompiledTracerLoad failed(const std::string& why, int error = 0) { return {false, 0, why, error}; }

TEST(CompiledTracerVerdict, NotBuiltIsNotInstalledAndSaysHowToBuildIt) {
  const auto p = judge_compiled_tracer(false, root_facts(), std::nullopt);
  EXPECT_FALSE(p.usable());
  EXPECT_FALSE(p.built);
  EXPECT_FALSE(p.load_tried);
  EXPECT_EQ(p.reason_code, "not_installed");
  EXPECT_TRUE(mentions(p.reason, "built without the compiled tracer")) << p.reason;
  EXPECT_TRUE(mentions(p.remediation, "ci/install-deps.sh")) << p.remediation;
}

TEST(CompiledTracerVerdict, NoBtfIsProbeNotFound) {
  CompiledTracerFacts f = root_facts();
  f.btf_present = false;
  const auto p = judge_compiled_tracer(true, f, std::nullopt);
  EXPECT_EQ(p.reason_code, "probe_not_found");
  EXPECT_TRUE(mentions(p.reason, "/sys/kernel/btf/vmlinux")) << p.reason;
  EXPECT_TRUE(mentions(p.remediation, "CONFIG_DEBUG_INFO_BTF=y")) << p.remediation;
}

TEST(CompiledTracerVerdict, EpermIsDeniedPrivilegeEvenForRoot) {
  const auto p =
      judge_compiled_tracer(true, root_facts(),
                            failed("the kernel refused to load the compiled tracer: Operation not "
                                   "permitted (needs BTF, and root or CAP_BPF with CAP_PERFMON)",
                                   EPERM));
  EXPECT_TRUE(p.load_tried);
  EXPECT_EQ(p.reason_code, "denied_privilege");
  EXPECT_EQ(p.errno_name, "EPERM");
  EXPECT_TRUE(mentions(p.reason, "Operation not permitted")) << p.reason;
  EXPECT_TRUE(mentions(p.remediation, "setcap cap_bpf,cap_perfmon+ep /opt/jbench/bin/jbench"))
      << p.remediation;
}

// EACCES is also what the verifier answers for a program it refuses: privilege only explains it
// when the process lacks privilege.
TEST(CompiledTracerVerdict, EaccesIsAVerifierRefusalWhenPrivilegedAndDeniedPrivilegeOtherwise) {
  const std::string why = "the kernel refused to load the compiled tracer: Permission denied";
  const auto privileged = judge_compiled_tracer(true, root_facts(), failed(why, EACCES));
  EXPECT_EQ(privileged.reason_code, "attach_failed");
  EXPECT_EQ(privileged.errno_name, "EACCES");
  EXPECT_TRUE(mentions(privileged.remediation, "JBENCH_LIBBPF_LOG=1")) << privileged.remediation;
  const auto unprivileged = judge_compiled_tracer(true, nobody_facts(), failed(why, EACCES));
  EXPECT_EQ(unprivileged.reason_code, "denied_privilege");
}

TEST(CompiledTracerVerdict, AnyOtherLoadErrorIsAttachFailedWithItsWords) {
  const auto p =
      judge_compiled_tracer(true, root_facts(), failed("cannot attach on_sys_enter: No such file"));
  EXPECT_EQ(p.reason_code, "attach_failed");
  EXPECT_EQ(p.reason, "cannot attach on_sys_enter: No such file");
  EXPECT_EQ(p.errno_name, "");
}

TEST(CompiledTracerVerdict, ALoadThatSucceededIsUsableWhateverTheFactsSay) {
  const auto p = judge_compiled_tracer(true, nobody_facts(), CompiledTracerLoad{true, 2500000, ""});
  EXPECT_TRUE(p.usable());
  EXPECT_TRUE(p.loaded);
  EXPECT_EQ(p.load_ns, 2500000U);
}

TEST(CompiledTracerVerdict, WithoutALoadPrivilegeDecides) {
  EXPECT_TRUE(judge_compiled_tracer(true, root_facts(), std::nullopt).usable());
  const auto p = judge_compiled_tracer(true, nobody_facts(), std::nullopt);
  EXPECT_EQ(p.reason_code, "denied_privilege");
  EXPECT_TRUE(mentions(p.reason, "euid 65534")) << p.reason;
  CompiledTracerFacts unknown = nobody_facts();
  unknown.euid.reset();
  unknown.privilege_why = "cannot open /proc/self/status: No such file or directory";
  EXPECT_EQ(judge_compiled_tracer(true, unknown, std::nullopt).reason_code, "unreadable");
}

// A build without libbpf, shaped as the doctor prints it: the check, the JSON (valid against the
// schema) and the text, and the backends passing over libbpf to bpftrace.
TEST(CompiledTracerCheck, NotBuiltShapesTheCheckTheBackendsAndTheText) {
  using namespace doctor;
  const Check lockdown = Check::ok("lockdown", "none");
  const Check compiled =
      compiled_tracer_check_for(judge_compiled_tracer(false, root_facts(), std::nullopt), lockdown);
  const nlohmann::json j = to_json(compiled);
  EXPECT_EQ(j["status"], "not_available");
  EXPECT_EQ(j["reason_code"], "not_installed");
  EXPECT_EQ(j["facts"]["built"], false);
  EXPECT_EQ(j["facts"]["attach_verified"], false);
  EXPECT_FALSE(j["facts"].contains("load_ns"));
  EXPECT_FALSE(j["facts"].contains("libbpf_version"));

  Check bpftrace = Check::ok("bpftrace", "/usr/bin/bpftrace 0.17.0: attached");
  bpftrace.facts["attach_verified"] = true;
  const std::vector<Check> checks = {compiled, bpftrace, Check::ok("strace", "/usr/bin/strace 6.1"),
                                     Check::ok("syscall_tracepoints", "present"),
                                     Check::ok("uprobes", "present")};
  const nlohmann::json backends = choose_backends(checks);
  for (const char* key : {"syscall_light", "syscall_full"}) {
    const auto& b = backends[key];
    EXPECT_EQ(b["chosen"], "bpftrace") << key;
    EXPECT_EQ(b["alternatives"][0]["backend"], "libbpf");
    EXPECT_EQ(b["alternatives"][0]["reason_code"], "not_installed");
    EXPECT_TRUE(
        mentions(b.value("why", ""), "libbpf is blocked by compiled_tracer (not_installed)"))
        << b.dump(2);
    EXPECT_TRUE(mentions(b.value("remediation", ""), "ci/install-deps.sh")) << b.dump(2);
  }

  // Into a whole document: the probe's own, with this check and these backends.
  test::FakeRoot root;
  nlohmann::json doc =
      probe_capabilities({.root = root.path(), .path_env = "/nonexistent", .try_attach = false});
  for (auto& c : doc["checks"]) {
    if (c["name"] == "compiled_tracer") c = j;
  }
  doc["backends"] = backends;
  auto schema = JsonSchema::builtin("capabilities.schema.json");
  ASSERT_TRUE(schema) << schema.error().message;
  for (const auto& v : schema->validate(doc)) ADD_FAILURE() << v.pointer << ": " << v.message;
  const std::string text = capabilities_to_text(doc);
  EXPECT_TRUE(mentions(text,
                       "compiled_tracer       not available: not_installed — this jbench was "
                       "built without the compiled tracer"))
      << text;
  EXPECT_TRUE(mentions(text,
                       "backend syscall_light bpftrace — libbpf is blocked by "
                       "compiled_tracer (not_installed)"))
      << text;
  EXPECT_LT(text.find("backend syscall_light"), text.find("backend syscall_full")) << text;
}

TEST(CompiledTracerCheck, LockdownExplainsARefusedLoad) {
  const doctor::Check lockdown = doctor::Check::missing(
      "lockdown", "locked_down", "confidentiality: ...", "boot with lockdown=none");
  const auto c = doctor::compiled_tracer_check_for(
      judge_compiled_tracer(true, root_facts(), failed("...: Operation not permitted")), lockdown);
  EXPECT_EQ(c.reason_code, "locked_down");
  EXPECT_EQ(c.remediation, "boot with lockdown=none");
}

// A test root has no BTF unless the test writes one: the probe then never loads into the real
// kernel, whatever this process may do.
TEST(CompiledTracerFakeRoot, WithoutBtfNothingIsLoaded) {
  test::FakeRoot root;
  const auto caps = probe_capabilities({.root = root.path(), .path_env = "/nonexistent"});
  const auto c = test::check_named(caps, "compiled_tracer");
  EXPECT_EQ(c["status"], "not_available");
  EXPECT_EQ(c["facts"]["attach_verified"], false);
  EXPECT_EQ(c["facts"]["btf_present"], false);
#ifdef JBENCH_HAVE_LIBBPF
  EXPECT_EQ(c["reason_code"], "probe_not_found");
#else
  EXPECT_EQ(c["reason_code"], "not_installed");
#endif
  EXPECT_EQ(caps["backends"]["syscall_light"]["alternatives"][0]["blocked_by"], "compiled_tracer");
}

TEST(CompiledTracerFakeRoot, NoAttachJudgesByPrivilegeAndSaysNothingIsProven) {
  test::FakeRoot root;
  root.file("sys/kernel/btf/vmlinux", "BTF");
  const ProbeOptions no_attach{
      .root = root.path(), .path_env = "/nonexistent", .try_attach = false};
  const auto as_root = test::check_named(probe_capabilities(no_attach), "compiled_tracer");
  EXPECT_EQ(as_root["facts"]["attach_verified"], false);
  EXPECT_EQ(as_root["facts"]["btf_present"], true);
  EXPECT_EQ(as_root["facts"]["euid"], 0);
#ifdef JBENCH_HAVE_LIBBPF
  EXPECT_EQ(as_root["status"], "available") << as_root.dump(2);
  EXPECT_TRUE(mentions(as_root.value("detail", ""), "load not tried (--no-attach): not proven"));
#endif

  root.status(1000, "0000000000000000");
  const auto caps = probe_capabilities(no_attach);
  const auto user = test::check_named(caps, "compiled_tracer");
  EXPECT_EQ(user["status"], "not_available");
  EXPECT_EQ(user["facts"]["euid"], 1000);
  EXPECT_EQ(user["facts"]["cap_bpf"], false);
#ifdef JBENCH_HAVE_LIBBPF
  EXPECT_EQ(user["reason_code"], "denied_privilege") << user.dump(2);
  EXPECT_TRUE(mentions(user.value("remediation", ""), "cap_bpf,cap_perfmon+ep"));
#endif
}

}  // namespace
}  // namespace jbench
