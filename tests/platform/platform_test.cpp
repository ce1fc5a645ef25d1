// jb_platform.h on this kernel: every function checked against an independent reader (the
// harness's /proc parsers, /proc/self/task, /proc/self/exe) or an observable effect (a wake, an
// exit status). Built twice: against Linux's implementation (JB_PLATFORM_LINUX 1) and against the
// POSIX one for the systems DTrace lives on (0), which reads no /proc: its start time, boot id
// and mappings say "not read", its thread ids are pthread handles, its waits are bounded sleeps.
#include <gtest/gtest.h>
#include <jb_platform.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "jbench/proc/proc_stat.h"

namespace {

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(PlatformSeam, IncarnationMatchesProcStat) {
  EXPECT_EQ(jb_platform_pid(), ::getpid());
  EXPECT_EQ(jb_platform_parent_pid(), ::getppid());
#if !JB_PLATFORM_LINUX
  std::uint64_t untouched = 12345;
  char text[8] = "same";
  EXPECT_EQ(jb_platform_start_time_ticks(&untouched), 0);
  EXPECT_EQ(jb_platform_boot_id(text, sizeof text), 0);
  EXPECT_EQ(untouched, 12345U);
  EXPECT_STREQ(text, "same");
  return;  // the POSIX implementation reads no start time or boot id, and says so
#endif
  std::uint64_t ticks = 0;
  ASSERT_EQ(jb_platform_start_time_ticks(&ticks), 1);
  const auto stat = jbench::proc::read_proc_stat(::getpid());
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ(ticks, stat->start_time_ticks);

  char boot[64];
  ASSERT_EQ(jb_platform_boot_id(boot, sizeof boot), 1);
  EXPECT_EQ(std::string(boot), jbench::proc::read_boot_id());
  EXPECT_EQ(std::strlen(boot), 36U);  // a UUID, newline removed
  char tiny[8];
  EXPECT_EQ(jb_platform_boot_id(tiny, sizeof tiny), 1);  // cut, still terminated
  EXPECT_EQ(std::strlen(tiny), 7U);
}

TEST(PlatformSeam, SmallFileReadsStopAtTheBufferAndRefuseMissingFiles) {
  char out[4];
  EXPECT_EQ(jb_platform_read_small_file("/proc/self/stat", out, sizeof out), 3);
  EXPECT_EQ(std::strlen(out), 3U);
  EXPECT_EQ(jb_platform_read_small_file("/nonexistent/jbench", out, sizeof out), -1);
  EXPECT_EQ(jb_platform_read_small_file("/proc/self/stat", out, 0), -1);
}

TEST(PlatformSeam, ThreadIdsAreTheKernelsAndNamesReachProc) {
#if !JB_PLATFORM_LINUX
  const std::int64_t main_id = jb_platform_tid();
  std::int64_t thread_id = 0;
  std::thread([&] { thread_id = jb_platform_tid(); }).join();
  EXPECT_NE(main_id, 0);
  EXPECT_EQ(jb_platform_tid(), main_id);
  EXPECT_NE(thread_id, 0);
  EXPECT_NE(thread_id, main_id);
  return;  // the POSIX implementation's ids are its own, not the kernel's
#endif
  EXPECT_EQ(jb_platform_tid(), ::getpid());  // the main thread's id is the pid
  std::int64_t other = 0;
  std::string comm;
  std::thread t([&] {
    other = jb_platform_tid();
    jb_platform_name_thread(pthread_self(), "jb-platform-t");
    comm = first_line("/proc/self/task/" + std::to_string(other) + "/comm");
  });
  t.join();
  EXPECT_NE(other, ::getpid());
  EXPECT_EQ(comm, "jb-platform-t");
}

TEST(PlatformSeam, RandomBytesDiffer) {
  unsigned char a[600] = {};  // past getentropy's 256 bytes a call
  unsigned char b[600] = {};
  ASSERT_EQ(jb_platform_random_bytes(a, sizeof a), 1);
  ASSERT_EQ(jb_platform_random_bytes(b, sizeof b), 1);
  EXPECT_NE(std::memcmp(a, b, sizeof a), 0);
}

TEST(PlatformSeam, WaitReturnsOnChangedWordTimeoutAndWake) {
  int word = 1;
  std::uint64_t t0 = jb_platform_monotonic_ns();
  jb_platform_wait_word(&word, 0, 5'000'000'000);  // word != expected: at once
  EXPECT_LT(jb_platform_monotonic_ns() - t0, 1'000'000'000U);

  word = 0;
  t0 = jb_platform_monotonic_ns();
  jb_platform_wait_word(&word, 0, 20'000'000);  // nobody wakes it: the 20 ms timeout
  const std::uint64_t waited = jb_platform_monotonic_ns() - t0;
  EXPECT_LT(waited, 2'000'000'000U);
#if JB_PLATFORM_LINUX
  EXPECT_GE(waited, 15'000'000U);  // it did sleep: the timeout is in ns, not 0
#endif

  std::atomic<int> wake{0};
  std::atomic<bool> returned{false};
  std::thread sleeper([&] {
    while (wake.load() == 0)
      jb_platform_wait_word(reinterpret_cast<int*>(&wake), 0, 10'000'000'000);
    returned = true;
  });
  ::usleep(50'000);
  t0 = jb_platform_monotonic_ns();
  wake.store(1);
  jb_platform_wake_word(reinterpret_cast<int*>(&wake));
  sleeper.join();
  EXPECT_TRUE(returned.load());
  EXPECT_LT(jb_platform_monotonic_ns() - t0, 5'000'000'000U);  // well before its 10 s timeout
}

struct Mapping {
  std::uint64_t start, end, offset;
  std::string path;
};

void collect(void* context, std::uint64_t start, std::uint64_t end, std::uint64_t offset,
             const char* path) {
  static_cast<std::vector<Mapping>*>(context)->push_back({start, end, offset, path});
}

TEST(PlatformSeam, MappingsHoldThisExecutableInAddressOrder) {
  std::vector<Mapping> maps;
  jb_platform_for_each_mapping(&collect, &maps);
#if !JB_PLATFORM_LINUX
  EXPECT_TRUE(maps.empty());
  return;  // the POSIX implementation lists no mappings: it calls nothing
#endif
  ASSERT_FALSE(maps.empty());
  char exe[PATH_MAX] = {};
  ASSERT_GT(::readlink("/proc/self/exe", exe, sizeof exe - 1), 0);
  const auto here = reinterpret_cast<std::uint64_t>(&first_line);
  bool found = false;
  for (std::size_t i = 0; i < maps.size(); ++i) {
    EXPECT_EQ(maps[i].path.front(), '/') << "only file-backed mappings";
    if (i > 0) {
      EXPECT_GE(maps[i].start, maps[i - 1].end);
    }
    if (maps[i].start <= here && here < maps[i].end) {
      EXPECT_EQ(maps[i].path, exe);
      found = true;
    }
  }
  EXPECT_TRUE(found) << "no mapping holds this test's own code";
}

TEST(PlatformSeam, ExitProcessSkipsAtexitHandlers) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    static int fd = pipe_fds[1];
    ::close(pipe_fds[0]);
    std::atexit([] { (void)!::write(fd, "x", 1); });
    jb_platform_exit_process(7);
  }
  ::close(pipe_fds[1]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
  char byte;
  EXPECT_EQ(::read(pipe_fds[0], &byte, 1), 0) << "an atexit handler ran";
  ::close(pipe_fds[0]);
}

}  // namespace
