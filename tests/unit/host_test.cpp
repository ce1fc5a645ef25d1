#include <gtest/gtest.h>

#include <filesystem>

#include "jbench/host/host_resources.h"
#include "temp_dir.h"

namespace jbench {
namespace {

void write_tree(const test::TempDir& dir, const std::string& online, const std::string& meminfo,
                const std::string& cpu_max, const std::string& memory_max) {
  std::filesystem::create_directories(dir.path() + "/proc");
  std::filesystem::create_directories(dir.path() + "/sys/devices/system/cpu");
  std::filesystem::create_directories(dir.path() + "/sys/fs/cgroup");
  dir.write("sys/devices/system/cpu/online", online);
  dir.write("proc/meminfo", meminfo);
  if (!cpu_max.empty()) dir.write("sys/fs/cgroup/cpu.max", cpu_max);
  if (!memory_max.empty()) dir.write("sys/fs/cgroup/memory.max", memory_max);
}

TEST(HostResources, reads_cpus_and_memory_from_the_tree) {
  test::TempDir dir;
  write_tree(dir, "0-3,6\n", "MemTotal:       8388608 kB\nMemFree: 1 kB\n", "", "");
  const auto host = probe_host_resources(dir.path());
  EXPECT_EQ(host.cores, 5u);
  EXPECT_EQ(host.memory_mib, 8192u);
}

TEST(HostResources, cgroup_limits_lower_the_totals) {
  test::TempDir dir;
  write_tree(dir, "0-7\n", "MemTotal: 8388608 kB\n", "150000 100000\n", "1073741824\n");
  const auto host = probe_host_resources(dir.path());
  EXPECT_EQ(host.cores, 2u);  // 1.5 CPUs of quota round up to 2
  EXPECT_EQ(host.memory_mib, 1024u);
}

TEST(HostResources, unlimited_cgroups_change_nothing) {
  test::TempDir dir;
  write_tree(dir, "0-1\n", "MemTotal: 2097152 kB\n", "max 100000\n", "max\n");
  const auto host = probe_host_resources(dir.path());
  EXPECT_EQ(host.cores, 2u);
  EXPECT_EQ(host.memory_mib, 2048u);
}

TEST(HostResources, the_real_host_has_at_least_one_core_and_some_memory) {
  const auto host = probe_host_resources();
  EXPECT_GE(host.cores, 1u);
  EXPECT_GT(host.memory_mib, 0u);
}

}  // namespace
}  // namespace jbench
