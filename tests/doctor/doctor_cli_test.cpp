// `jbench doctor` as a user runs it: exit codes, --json that parses and validates, a text form
// with every check, and the acceptance case: without bpftrace on PATH it names the fallback or
// the precise remediation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "fake_host.h"
#include "jbench/doctor/capabilities.h"
#include "jbench/schema/json_schema.h"
#include "jbench_binary.h"

namespace jbench {
namespace {

using test::run_jbench;

const char* const kLinuxChecks[] = {"os",
                                    "effective_uid",
                                    "capabilities",
                                    "perf_event_paranoid",
                                    "ptrace_scope",
                                    "unprivileged_bpf",
                                    "lockdown",
                                    "tracefs",
                                    "syscall_tracepoints",
                                    "uprobes",
                                    "compiled_tracer",
                                    "bpftrace",
                                    "strace",
                                    "dtrace",
                                    "instructions_counter",
                                    "callgrind"};

TEST(DoctorCli, TextListsEveryCheckAndTheBackends) {
  test::FakeRoot root;
  test::FakeTools empty;
  const auto r =
      run_jbench({"doctor", "--no-attach", "--root", root.path(), "--path", empty.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : kLinuxChecks) {
    EXPECT_NE(r.out.find(std::string("\n") + name + " "), std::string::npos) << name << "\n"
                                                                             << r.out;
  }
  EXPECT_NE(r.out.find("not available: not_installed — "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; fix: "), std::string::npos);
  EXPECT_NE(r.out.find("\nbackend syscall_light "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nbackend syscall_full "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\nbackend syscall "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("attach not tried (--no-attach)"), std::string::npos);
}

TEST(DoctorCli, JsonParsesAndValidates) {
  const auto r = run_jbench({"doctor", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["schema"], "jbench.capabilities");
  auto schema = JsonSchema::builtin("capabilities.schema.json");
  ASSERT_TRUE(schema) << schema.error().message;
  for (const auto& v : schema->validate(doc)) ADD_FAILURE() << v.pointer << ": " << v.message;
}

// Without bpftrace the compiled tracer, where it loads, or strace is chosen for each mode, or
// none with the remediation.
TEST(DoctorCli, WithoutBpftraceOnPathNamesTheFallbackOrTheRemediation) {
  test::FakeTools tools;  // strace only, when this host has it
  if (::access("/usr/bin/strace", X_OK) == 0) tools.link("strace", "/usr/bin/strace");
  const auto r = run_jbench({"doctor", "--path", tools.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("bpftrace              not available: not_installed"), std::string::npos)
      << r.out;
  for (const std::string line : {"backend syscall_light ", "backend syscall_full  "}) {
    const bool compiled = r.out.find(line + "libbpf — ") != std::string::npos;
    const bool fallback = r.out.find(line + "strace — ") != std::string::npos;
    const bool remediation = r.out.find(line + "none — ") != std::string::npos &&
                             r.out.find("apt-get install bpftrace") != std::string::npos;
    EXPECT_TRUE(compiled || fallback || remediation) << line << "\n" << r.out;
  }

  // A test root has no kernel BTF: with no tool either, nothing can trace system calls.
  test::FakeRoot root;
  test::FakeTools empty;
  const auto none = run_jbench({"doctor", "--json", "--root", root.path(), "--path", empty.path()});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  const auto doc = nlohmann::json::parse(none.out);
  for (const char* key : {"syscall_light", "syscall_full"}) {
    const auto& b = doc["backends"][key];
    EXPECT_TRUE(b["chosen"].is_null()) << key;
    EXPECT_NE(b["remediation"].get<std::string>().find("apt-get install bpftrace"),
              std::string::npos);
  }
}

TEST(DoctorCli, BadUsageIsExitTwo) {
  const auto r = run_jbench({"doctor", "--bogus"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--bogus"), std::string::npos) << r.err;
  const auto extra = run_jbench({"doctor", "extra"});
  EXPECT_EQ(extra.exit_code, 2);
}

TEST(DoctorCli, HelpHidesTheTestOptions) {
  const auto r = run_jbench({"doctor", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--no-attach"), std::string::npos);
  EXPECT_EQ(r.out.find("--root"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace jbench
