// The real host (no fake inputs): bpftrace really attaches here, or the test is skipped with the
// probe's own reason.
#include <gtest/gtest.h>

#include "fake_host.h"
#include "jbench/doctor/capabilities.h"

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
  const auto& syscall = caps["backends"]["syscall"];
  if (test::check_named(caps, "syscall_tracepoints")["status"] == "available") {
    EXPECT_EQ(syscall["chosen"], "bpftrace");
  } else {
    EXPECT_NE(syscall["chosen"], "bpftrace") << syscall.dump(2);
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
