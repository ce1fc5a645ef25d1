// The bpftrace program of one run, generated from the traced-call table (pure: text in, text out).
//
// Scope is decided in the kernel: @cohort holds the registered pids (seeded in BEGIN), a member's
// fork joins it (task_newtask without CLONE_THREAD), a process the harness adds later joins it
// through a marker call, and an exiting leader leaves it. Nothing outside @cohort is counted, so
// an unrelated process with the same executable name changes nothing.
//
// The phase is kept in @phase, set by the harness's marker call getpgid(0x7fff0000 + phase)
// (only from the harness's pid); a call belongs to the phase in force when it entered.
//
// Lines the program prints (each inside bpftrace's -f json "printf" record), space-separated:
//   B 1                                   BEGIN ran (line format version 1)
//   M <phase> <t>                         a phase marker was seen: the probes are attached
//   S <n> <t>                             sync marker n: bpftrace has read its buffers up to it
//   J <pid> <t>                           the harness added <pid>
//   F <parent> <child> <t>                a member forked a process
//   P <pid> <start_boottime_ns> <parent> <t>   first traced call of a member: its start time
//   K <pid> <tid> <t> <path>              a canary (faccessat & co. on /jbench-canary/...)
//   O <tid> <t> <path>                    full: the path an open asked for (t: its entry)
//   C <call> <pid> <tid> <t> <dur> <phase> <fd> <ret> <request> <major> <minor> <inode>
//                                         full: one completed call
// and, light, at exit the maps @s (stats of durations), @x (max), @h (log2 histogram),
// @r (errors), keyed (pid, phase, call), and @q / @qe (requests, their errors) keyed
// (pid, phase, call, request).
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

namespace jbench::collectors::syscall_detail {

enum class Detail { light, full };

struct ScriptSpec {
  Detail detail = Detail::light;
  pid_t harness_pid = 0;
  std::vector<pid_t> cohort;
  // Calls whose tracepoints exist on this host (others are left out, e.g. no sys_enter_open on
  // arm64), and which canary calls exist.
  std::vector<std::string_view> calls;
  std::vector<std::string_view> canary_calls;
};

// Map key limit the script is run with (BPFTRACE_MAP_KEYS_MAX); a map that reaches it may have
// refused updates, which the collector treats as lost events.
inline constexpr std::size_t kMapKeysMax = 16384;
// bpftrace's string limit (BPFTRACE_STRLEN, at most 200 in 0.17): paths are cut at one less.
inline constexpr std::size_t kStringLimit = 200;

std::string bpftrace_script(const ScriptSpec& spec);

}  // namespace jbench::collectors::syscall_detail
