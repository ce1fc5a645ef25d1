// Reading /proc/<pid>/stat: who a process is (its incarnation) and what it has used.
//
// An incarnation survives PID reuse: (boot id, pid, start time in clock ticks since boot). Two
// processes with the same pid but different start times are different incarnations.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jbench::proc {

struct ProcStat {
  pid_t pid = 0;
  std::string comm;  // without the parentheses; may contain spaces and ')'
  char state = '?';
  pid_t ppid = 0;
  pid_t pgrp = 0;
  pid_t session = 0;
  // Page faults of the thread group (its exited threads included): minor ones met from memory,
  // major ones that had to read a file or swap.
  std::uint64_t minor_faults = 0;
  std::uint64_t major_faults = 0;
  std::uint64_t utime_ticks = 0;
  std::uint64_t stime_ticks = 0;
  std::uint64_t start_time_ticks = 0;  // since boot
  std::int64_t threads = 0;
};

// Parses the text of a stat file (comm is found by the last ')').
std::optional<ProcStat> parse_proc_stat(const std::string& text);
std::optional<ProcStat> read_proc_stat(pid_t pid, const std::string& root = "");

// /proc/sys/kernel/random/boot_id, without the newline; empty when unreadable.
std::string read_boot_id(const std::string& root = "");

// Every process whose process group is `group` (a scan of /proc).
std::vector<ProcStat> processes_in_group(pid_t group, const std::string& root = "");

std::uint64_t ticks_to_ns(std::uint64_t ticks);

}  // namespace jbench::proc
