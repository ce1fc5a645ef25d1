#include "jbench/provenance/host_fingerprint.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "temp_dir.h"
#include "test_files.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;

const char* const kKeys[] = {"cpu_model", "cpus_online", "cpus_usable", "memory_total_mib",
                             "kernel",    "hostname",    "boot_id",     "clocksource"};

void make_tree(const test::TempDir& dir) {
  fs::create_directories(dir.path() + "/proc/sys/kernel/random");
  fs::create_directories(dir.path() + "/sys/devices/system/cpu");
  fs::create_directories(dir.path() + "/sys/devices/system/clocksource/clocksource0");
}

TEST(HostFingerprint, the_real_host_has_every_key) {
  const auto host = host_fingerprint();
  for (const char* key : kKeys) {
    ASSERT_TRUE(host.contains(key)) << key;
    EXPECT_FALSE(host[key].is_null()) << key;
  }
  EXPECT_GE(host.at("cpus_usable").get<int>(), 1);
  EXPECT_GT(host.at("memory_total_mib").get<std::uint64_t>(), 0u);
  EXPECT_EQ(host.at("kernel").at("sysname"), "Linux");
  EXPECT_FALSE(host.at("kernel").at("release").get<std::string>().empty());
  const std::string boot_id = host.at("boot_id").get<std::string>();
  EXPECT_TRUE(std::regex_match(boot_id, std::regex("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}")))
      << boot_id;
  EXPECT_EQ(boot_id + "\n", test::read_file("/proc/sys/kernel/random/boot_id"));
  if (host.at("cpus_online").is_number()) {
    EXPECT_LE(host.at("cpus_usable").get<int>(), host.at("cpus_online").get<int>());
  }
}

TEST(HostFingerprint, reads_a_fake_tree) {
  test::TempDir dir;
  make_tree(dir);
  dir.write("proc/cpuinfo",
            "processor\t: 0\nvendor_id\t: FakeVendor\nmodel name\t: Fake CPU @ 1.00GHz  \n"
            "flags\t\t: fpu\n\nprocessor\t: 1\nmodel name\t: Other CPU\n");
  dir.write("proc/meminfo", "MemTotal:       16384000 kB\nMemFree:          100 kB\n");
  dir.write("sys/devices/system/cpu/online", "0-3,6\n");
  dir.write("proc/sys/kernel/random/boot_id", "01234567-89ab-cdef-0123-456789abcdef\n");
  dir.write("sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
  const auto host = host_fingerprint(dir.path());
  EXPECT_EQ(host.at("cpu_model"), "Fake CPU @ 1.00GHz");
  EXPECT_EQ(host.at("cpus_online"), 5);
  EXPECT_EQ(host.at("memory_total_mib"), 16000);
  EXPECT_EQ(host.at("boot_id"), "01234567-89ab-cdef-0123-456789abcdef");
  EXPECT_EQ(host.at("clocksource"), "tsc");
}

TEST(HostFingerprint, unreadable_facts_are_recorded_with_the_reason) {
  test::TempDir dir;  // an empty tree
  const auto host = host_fingerprint(dir.path());
  for (const char* key :
       {"cpu_model", "cpus_online", "memory_total_mib", "boot_id", "clocksource"}) {
    ASSERT_TRUE(host.contains(key)) << key;
    ASSERT_TRUE(host[key].is_object()) << key << ": " << host[key].dump();
    const std::string why = host[key].at("unavailable");
    EXPECT_NE(why.find("cannot open"), std::string::npos) << why;
    EXPECT_NE(why.find(dir.path()), std::string::npos) << why;
  }
}

TEST(HostFingerprint, a_cpuinfo_without_model_name_says_so) {
  test::TempDir dir;
  make_tree(dir);
  // arm64 kernels list "CPU implementer" and friends, not "model name".
  dir.write("proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n");
  dir.write("proc/meminfo", "MemFree: 1 kB\n");
  dir.write("sys/devices/system/cpu/online", "zero\n");
  const auto host = host_fingerprint(dir.path());
  EXPECT_NE(host.at("cpu_model").at("unavailable").get<std::string>().find("model name"),
            std::string::npos);
  EXPECT_NE(host.at("memory_total_mib").at("unavailable").get<std::string>().find("MemTotal"),
            std::string::npos);
  EXPECT_NE(host.at("cpus_online").at("unavailable").get<std::string>().find("zero"),
            std::string::npos);
}

}  // namespace
}  // namespace jbench
