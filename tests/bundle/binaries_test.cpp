#include "jbench/provenance/binaries.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "jbench/bundle/sha256sums.h"
#include "jbench/provenance/elf_info.h"
#include "temp_dir.h"
#include "test_files.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;

// Waits (bounded) until /proc/<pid>/exe names `expected`, i.e. the child has exec'd.
bool wait_for_exec(pid_t pid, const std::string& expected_prefix) {
  for (int i = 0; i < 200; ++i) {
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec).string();
    if (!ec && exe.rfind(expected_prefix, 0) == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(ParseProcMaps, keeps_distinct_executable_files_in_order) {
  const std::string maps =
      "55d0a0000000-55d0a0001000 r--p 00000000 08:01 100 /usr/bin/prog\n"
      "55d0a0001000-55d0a0002000 r-xp 00001000 08:01 100 /usr/bin/prog\n"
      "7f0000000000-7f0000001000 r-xp 00000000 08:01 200                 /usr/lib/libc.so.6\n"
      "7f0000001000-7f0000002000 r-xp 00001000 08:01 200                 /usr/lib/libc.so.6\n"
      "7f0000002000-7f0000003000 rw-p 00000000 00:00 0 \n"
      "7f0000003000-7f0000004000 r-xp 00000000 00:00 0\n"
      "7f0000004000-7f0000005000 r-xp 00000000 08:01 300   /opt/my app/lib plugin.so\n"
      "7f0000005000-7f0000006000 r-xp 00000000 08:01 400   /tmp/jit.so (deleted)\n"
      "7f0000006000-7f0000007000 r-xp 00000000 00:00 0     [anon:jit]\n"
      "7ffc00000000-7ffc00001000 r-xp 00000000 00:00 0     [vdso]\n"
      "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]\n";
  const auto files = parse_proc_maps(maps);
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(files[0].path, "/usr/bin/prog");
  EXPECT_EQ(files[0].address_range, "55d0a0001000-55d0a0002000");
  EXPECT_EQ(files[1].path, "/usr/lib/libc.so.6");
  EXPECT_EQ(files[2].path, "/opt/my app/lib plugin.so");
  EXPECT_FALSE(files[2].deleted);
  EXPECT_EQ(files[3].path, "/tmp/jit.so");
  EXPECT_TRUE(files[3].deleted);
}

TEST(DescribeBinary, describes_the_test_binary) {
  const std::string self = test::self_exe();
  const auto d = describe_binary(self);
  EXPECT_EQ(d.at("path"), self);
  EXPECT_EQ(d.at("size_bytes").get<std::uint64_t>(), fs::file_size(self));
  EXPECT_EQ(d.at("sha256"), *file_sha256(self));
  const ElfInfo elf = read_elf_info(self);
  EXPECT_EQ(d.at("build_id"), elf.build_id);
  EXPECT_EQ(d.at("has_debug_info"), elf.has_debug_info);
  EXPECT_EQ(d.at("has_symtab"), elf.has_symtab);
  EXPECT_TRUE(d.contains("separate_debug_file"));
  EXPECT_FALSE(d.contains("elf_error")) << d.dump();
  EXPECT_FALSE(d.contains("error")) << d.dump();
}

TEST(DescribeBinary, a_second_description_of_an_unchanged_file_comes_from_the_cache) {
  test::TempDir tmp;
  const std::string path = tmp.write("tool", "#!/bin/sh\necho not ELF\n");
  const auto before = describe_cache_stats();
  const auto first = describe_binary(path);
  const auto second = describe_binary(path);
  const auto after = describe_cache_stats();
  EXPECT_EQ(after.misses - before.misses, 1u);
  EXPECT_EQ(after.hits - before.hits, 1u);
  EXPECT_EQ(first, second);
  EXPECT_EQ(first.at("is_elf"), false);
  EXPECT_TRUE(first.contains("elf_error"));
  EXPECT_TRUE(first.at("build_id").is_null());

  // A changed file (size and mtime) is described afresh.
  test::write_bytes(path, "#!/bin/sh\necho changed, longer\n");
  const auto third = describe_binary(path);
  EXPECT_EQ(describe_cache_stats().misses - after.misses, 1u);
  EXPECT_NE(third.at("sha256"), first.at("sha256"));
}

TEST(DescribeBinary, a_missing_file_is_an_error_entry) {
  const auto d = describe_binary("/nonexistent/binary");
  EXPECT_EQ(d.at("path"), "/nonexistent/binary");
  EXPECT_NE(d.at("error").get<std::string>().find("No such file"), std::string::npos) << d.dump();
}

TEST(ProcessProvenance, lists_this_process_exe_first_then_its_libraries) {
  const auto list = process_provenance(getpid());
  ASSERT_TRUE(list.is_array());
  ASSERT_GE(list.size(), 2u) << list.dump(2);
  EXPECT_EQ(list[0].at("role"), "exe");
  EXPECT_EQ(list[0].at("path"), test::self_exe());
  EXPECT_EQ(list[0].at("deleted"), false);
  bool has_libc = false;
  for (std::size_t i = 1; i < list.size(); ++i) {
    EXPECT_EQ(list[i].at("role"), "mapped");
    EXPECT_NE(list[i].at("path"), list[0].at("path"));
    EXPECT_TRUE(list[i].at("sha256").is_string()) << list[i].dump();
    const std::string base = fs::path(list[i].at("path").get<std::string>()).filename().string();
    if (base.rfind("libc.so", 0) == 0) has_libc = true;
  }
  EXPECT_TRUE(has_libc) << list.dump(2);
}

TEST(ProcessProvenance, describes_another_process_and_a_deleted_executable) {
  const std::string sleep_bin = test::find_program({"/usr/bin/sleep", "/bin/sleep"});
  if (sleep_bin.empty()) GTEST_SKIP() << "no sleep binary";
  test::TempDir tmp;
  const std::string copy = tmp.path() + "/my-sleep";
  fs::copy_file(sleep_bin, copy);
  fs::permissions(copy, fs::perms::owner_all);
  const std::string digest = *file_sha256(copy);

  test::ChildGuard child(test::spawn({copy, "10"}));
  ASSERT_TRUE(wait_for_exec(child.pid(), copy)) << "the child did not exec " << copy;
  fs::remove(copy);

  const auto list = process_provenance(child.pid());
  ASSERT_GE(list.size(), 1u);
  EXPECT_EQ(list[0].at("role"), "exe");
  EXPECT_EQ(list[0].at("path"), copy);
  EXPECT_EQ(list[0].at("deleted"), true);
  // Read through /proc/<pid>/exe: the running file, although its path is gone.
  EXPECT_EQ(list[0].at("sha256"), digest) << list[0].dump();
}

TEST(ProcessProvenance, a_process_that_does_not_exist_gives_an_error_entry) {
  test::ChildGuard child(test::spawn({"/bin/true"}));
  const pid_t pid = child.pid();
  child.wait();
  // The pid is reaped, so /proc/<pid> is gone (reuse within this test is vanishingly unlikely).
  const auto list = process_provenance(pid);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_TRUE(list[0].contains("error")) << list.dump();
  EXPECT_EQ(list[0].at("pid"), pid);
}

}  // namespace
}  // namespace jbench
