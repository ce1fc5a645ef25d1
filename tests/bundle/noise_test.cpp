#include "jbench/provenance/noise.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include "temp_dir.h"
#include "test_files.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

// utime + stime of a live process, in clock ticks.
std::uint64_t pid_ticks(pid_t pid) {
  const std::string stat = test::read_file("/proc/" + std::to_string(pid) + "/stat");
  std::istringstream in(stat.substr(stat.rfind(')') + 2));
  std::string field;
  std::uint64_t ticks = 0;
  for (int i = 3; i <= 15 && in >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stoull(field);
  }
  return ticks;
}

void make_fake_proc(const test::TempDir& dir, const std::string& loadavg) {
  fs::create_directories(dir.path() + "/proc");
  fs::create_directories(dir.path() + "/sys/devices/system/cpu/cpu0/cpufreq");
  fs::create_directories(dir.path() + "/sys/devices/system/cpu/cpu1");
  dir.write("proc/loadavg", loadavg);
  dir.write("proc/stat", "cpu  100 0 50 1000 10 0 0 0 0 0\ncpu0 50 0 25 500 5 0 0 0 0 0\n");
  dir.write("sys/devices/system/cpu/online", "0-1\n");
  dir.write("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
}

TEST(SampleNoise, parses_loadavg_and_governors_from_a_fake_tree) {
  test::TempDir dir;
  make_fake_proc(dir, "0.50 1.25 2.00 3/456 7890\n");
  const NoiseSample s = sample_noise(milliseconds(0), {}, dir.path());
  ASSERT_TRUE(s.load_average) << s.loadavg_unavailable;
  EXPECT_DOUBLE_EQ((*s.load_average)[0], 0.50);
  EXPECT_DOUBLE_EQ((*s.load_average)[1], 1.25);
  EXPECT_DOUBLE_EQ((*s.load_average)[2], 2.00);
  EXPECT_EQ(s.procs_running, 3u);
  EXPECT_EQ(s.procs_total, 456u);
  ASSERT_EQ(s.governors.size(), 2u);
  EXPECT_EQ(s.governors[0].governor, "performance");
  EXPECT_TRUE(s.governors[1].governor.empty());
  EXPECT_NE(s.governors[1].unavailable.find("cpu1"), std::string::npos);
  EXPECT_FALSE(s.busy_share);
  EXPECT_NE(s.shares_unavailable.find("window is 0"), std::string::npos);

  const auto j = to_json(s);
  EXPECT_EQ(j.at("window_ms"), 0);
  EXPECT_EQ(j.at("load_average").at("5m"), 1.25);
  EXPECT_EQ(j.at("procs_running"), 3);
  EXPECT_EQ(j.at("cpu_governors")[0], (nlohmann::json{{"cpu", 0}, {"governor", "performance"}}));
  EXPECT_TRUE(j.at("cpu_governors")[1].contains("unavailable"));
  EXPECT_TRUE(j.at("cpu_share").contains("unavailable"));
}

TEST(SampleNoise, a_malformed_loadavg_is_unavailable_with_the_reason) {
  test::TempDir dir;
  make_fake_proc(dir, "garbage\n");
  const NoiseSample s = sample_noise(milliseconds(0), {}, dir.path());
  EXPECT_FALSE(s.load_average);
  EXPECT_NE(s.loadavg_unavailable.find("garbage"), std::string::npos) << s.loadavg_unavailable;
  const auto j = to_json(s);
  EXPECT_TRUE(j.at("load_average").contains("unavailable"));
  EXPECT_TRUE(j.at("procs_running").contains("unavailable"));
}

TEST(SampleNoise, pids_that_cannot_be_read_are_reported_lost) {
  test::TempDir dir;
  make_fake_proc(dir, "0.00 0.00 0.00 1/1 1\n");
  fs::create_directories(dir.path() + "/proc/123");
  // A command name with spaces and parentheses: fields are counted from the last ')'.
  dir.write("proc/123/stat",
            "123 (evil) (name x) S 1 123 123 0 -1 4194304 100 0 0 0 700 300 0 0 20 0 1 0 "
            "100 1000 10\n");
  const NoiseSample s = sample_noise(milliseconds(5), {124, 123, 123}, dir.path());
  EXPECT_EQ(s.ours, (std::vector<pid_t>{123, 124}));
  EXPECT_EQ(s.ours_lost, std::vector<pid_t>{124});
  // The fake /proc/stat does not move, so no share can be computed, and the reason says so.
  EXPECT_FALSE(s.busy_share);
  EXPECT_NE(s.shares_unavailable.find("no CPU time elapsed"), std::string::npos)
      << s.shares_unavailable;
}

// The child burns one CPU for up to ~3 s; each sample takes 400 ms of it.
TEST(SampleNoise, a_busy_child_counts_as_others_unless_it_is_ours) {
  test::ChildGuard child(test::spawn_cpu_burner(3.0));
  // Until the child has burned a tick (an event; the deadline is a safety net).
  for (int i = 0; i < 1000 && pid_ticks(child.pid()) == 0; ++i) {
    std::this_thread::sleep_for(milliseconds(5));
  }

  // The child's own ticks, read around the sample, so the check does not rest on other load.
  const auto read_start = std::chrono::steady_clock::now();
  const std::uint64_t child_before = pid_ticks(child.pid());
  const NoiseSample others = sample_noise(milliseconds(400), {getpid()});
  const std::uint64_t child_ticks = pid_ticks(child.pid()) - child_before;
  const auto outside_window = std::chrono::steady_clock::now() - read_start - milliseconds(400);
  ASSERT_TRUE(others.busy_share) << others.shares_unavailable;
  EXPECT_GT(*others.others_share, 0.0) << to_json(others).dump();
  EXPECT_GT(child_ticks, 0u);
  // The host's busy time covers the child's. The two reads of the child enclose the sample's
  // window: the child may have burned a tick or two more, and on a loaded host whatever it burned
  // while this test waited for a CPU between a read and the window.
  const auto tick = std::chrono::nanoseconds(1'000'000'000 / ::sysconf(_SC_CLK_TCK));
  const auto slack = static_cast<std::uint64_t>(std::max<std::int64_t>(
                         0, std::chrono::ceil<std::chrono::nanoseconds>(outside_window) / tick)) +
                     2;
  EXPECT_GE(others.busy_ticks + slack, child_ticks) << to_json(others).dump();
  EXPECT_GE(*others.busy_share, *others.others_share);
  EXPECT_LE(*others.busy_share, 1.0);

  const NoiseSample ours = sample_noise(milliseconds(400), {child.pid(), getpid()});
  ASSERT_TRUE(ours.ours_share) << ours.shares_unavailable;
  EXPECT_GT(*ours.ours_share, 0.0) << to_json(ours).dump();
  EXPECT_GT(ours.ours_ticks, 0u);
  EXPECT_TRUE(ours.ours_lost.empty());
  EXPECT_GE(*ours.others_share, 0.0);
  // The burner is one thread: it can use at most one CPU's worth of the host.
  const auto cpus = std::thread::hardware_concurrency();
  if (cpus > 0) {
    EXPECT_LE(*ours.ours_share, 1.0 / cpus + 0.05);
  }

  const auto j = to_json(ours);
  EXPECT_EQ(j.at("window_ms"), 400);
  EXPECT_TRUE(j.at("cpu_share").at("ours").is_number());
  EXPECT_TRUE(j.at("cpu_share").at("ticks").at("total").is_number());
}

TEST(SampleNoise, window_zero_on_the_real_host_gives_instantaneous_values_only) {
  const NoiseSample s = sample_noise(milliseconds(0), {getpid()});
  EXPECT_TRUE(s.load_average) << s.loadavg_unavailable;
  EXPECT_FALSE(s.busy_share);
  // Either a reading (or reason) per online CPU, or one reason why the CPUs could not be listed.
  EXPECT_NE(s.governors.empty(), s.governors_unavailable.empty());
  for (const auto& g : s.governors) EXPECT_NE(g.governor.empty(), g.unavailable.empty());
}

}  // namespace
}  // namespace jbench
