// The capability document against manifests/capabilities.schema.json: the real host's, fake
// roots' (every not_available path at once), and the reason codes the schema and API declare.
#include <gtest/gtest.h>

#include "fake_host.h"
#include "jbench/doctor/capabilities.h"
#include "jbench/schema/json_schema.h"

namespace jbench {
namespace {

Result<JsonSchema> capabilities_schema() {
  auto schema = JsonSchema::builtin("capabilities.schema.json");
  EXPECT_TRUE(schema) << schema.error().message;
  return schema;
}

void expect_valid(const JsonSchema& schema, const nlohmann::json& doc) {
  for (const auto& v : schema.validate(doc)) {
    ADD_FAILURE() << v.pointer << ": " << v.message << "\n" << doc.dump(2);
  }
}

TEST(DoctorSchema, RealHostProbeIsValid) {
  auto schema = capabilities_schema();
  ASSERT_TRUE(schema);
  expect_valid(*schema, probe_capabilities({}));
}

TEST(DoctorSchema, FakeRootProbesAreValid) {
  auto schema = capabilities_schema();
  ASSERT_TRUE(schema);
  test::FakeRoot root;
  test::FakeTools tools;
  tools.script("bpftrace", "echo 'bpftrace v0.99.0'\necho 'failed' >&2\nexit 1\n");
  expect_valid(*schema, probe_capabilities({.root = root.path(), .path_env = tools.path()}));

  root.status(1000, "0000000000000000");
  root.file("proc/sys/kernel/yama/ptrace_scope", "3\n");
  root.file("sys/kernel/security/lockdown", "none integrity [confidentiality]\n");
  root.remove("sys/kernel/tracing");
  root.remove("sys/bus");
  root.remove("proc/sys/kernel/perf_event_paranoid");
  test::FakeTools empty;
  expect_valid(*schema, probe_capabilities({.root = root.path(), .path_env = empty.path()}));
}

TEST(DoctorSchema, ReasonCodesMatchTheSchema) {
  auto schema = capabilities_schema();
  ASSERT_TRUE(schema);
  nlohmann::json doc = probe_capabilities({.root = "", .path_env = "", .try_attach = false});
  auto& check = doc["checks"][0];
  check["status"] = "not_available";
  check["remediation"] = "x";
  for (const auto& code : capability_reason_codes()) {
    check["reason_code"] = code;
    expect_valid(*schema, doc);
  }
  check["reason_code"] = "something_else";
  EXPECT_FALSE(schema->validate(doc).empty());
}

// Bundles written before the compiled tracer carry one backends.syscall: they stay valid. A
// document with neither form is not.
TEST(DoctorSchema, AnOlderDocumentsSingleSyscallBackendStillValidates) {
  auto schema = capabilities_schema();
  ASSERT_TRUE(schema);
  nlohmann::json doc = probe_capabilities({.root = "", .path_env = "", .try_attach = false});
  auto& backends = doc["backends"];
  ASSERT_TRUE(backends.contains("syscall_light") && backends.contains("syscall_full"));
  backends["syscall"] = backends["syscall_light"];
  backends.erase("syscall_light");
  backends.erase("syscall_full");
  expect_valid(*schema, doc);
  backends.erase("syscall");
  EXPECT_FALSE(schema->validate(doc).empty());
}

}  // namespace
}  // namespace jbench
