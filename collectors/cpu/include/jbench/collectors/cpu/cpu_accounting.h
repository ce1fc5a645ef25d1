// The cpu collector: the kernel's own accounting of every incarnation of the cohort, read by the
// harness at the phase boundaries (between phases, so reading costs no phase anything) and, at
// exit, the exact totals wait4() returned. Threads are included: CPU time is the thread group's
// (clock_getcpuclockid), context switches are summed over /proc/<pid>/task/*/status. The
// scheduler's own accounting of the workload's threads — all but the trace bridge's writer, the
// observer's — comes from /proc/<pid>/task/*/schedstat: time on a CPU and time runnable (ready,
// waiting for a CPU; run_delay), so a phase's wall time per thread splits into on-CPU, runnable
// and blocked. Page faults come from /proc/<pid>/stat and the process's I/O from /proc/<pid>/io,
// less the bridge's writer's own (/proc/<pid>/task/<tid>/: the observer writes the event files):
// counts of what the program asked for, which the host's other work hardly moves.
//
//   CpuAccounting cpu;
//   cpu.track(0, pid, start_time_ticks);   // after registration
//   cpu.boundary("warmup");                // right before releasing each phase
//   cpu.boundary("measure"); cpu.boundary("teardown");
//   cpu.exited(pid, status);               // after reaping
//   CollectorEntry e = cpu.finish(workers);
//   std::string error; nlohmann::json s = cpu_summary(cpu.readings(), error);
//
// Attachment is proven by reading each incarnation back with its registered start time. A
// process that ends early is read no more (its exit totals close its last phase); one that
// cannot be read at registration, or whose exit totals never arrive, fails the collector.
#pragma once

#include <sys/types.h>

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/collectors/api/collector.h"

namespace jbench::collectors {

// Where the readings are kept, inside the run directory.
inline constexpr const char* kCpuReadingsFile = "raw/cpu.readings.json";

// /proc/<pid>/io of a thread group (its exited threads included): bytes through read- and
// write-family calls (rchar, wchar: page-cache hits, pipes and sockets too), and bytes the
// storage layer fetched for it or was sent on its behalf (read_bytes, write_bytes).
struct IoCounts {
  std::uint64_t read_chars = 0;
  std::uint64_t written_chars = 0;
  std::uint64_t storage_read_bytes = 0;
  std::uint64_t storage_written_bytes = 0;
  bool operator==(const IoCounts&) const = default;
};

struct CpuSample {
  std::uint64_t cpu_ns = 0;  // user + system of the whole thread group, nanoseconds
  std::uint64_t user_ticks = 0;
  std::uint64_t system_ticks = 0;
  std::uint64_t voluntary_switches = 0;    // live threads at the time of reading
  std::uint64_t involuntary_switches = 0;  // live threads at the time of reading
  std::int64_t threads = 0;
  // The workload's live threads by schedstat: on a CPU, and waiting for one. None when the
  // kernel keeps no schedstat.
  std::optional<std::uint64_t> on_cpu_ns;
  std::optional<std::uint64_t> runnable_ns;
  // The thread group's page faults: met from memory (minor), or by reading a file or swap (major).
  std::uint64_t minor_faults = 0;
  std::uint64_t major_faults = 0;
  std::optional<IoCounts> io;  // none when /proc/<pid>/io cannot be read
};

// IoCounts' fields: each one's line in /proc/<pid>/io, its name in the readings and the summary,
// and where it is kept. The parser, the writer's subtraction, the readings and the summary all
// take them from here.
struct IoField {
  const char* proc_key;  // "rchar:"
  const char* name;      // "read_chars"
  std::uint64_t IoCounts::*member;
};
inline constexpr std::array<IoField, 4> kIoFields = {
    {{"rchar:", "read_chars", &IoCounts::read_chars},
     {"wchar:", "written_chars", &IoCounts::written_chars},
     {"read_bytes:", "storage_read_bytes", &IoCounts::storage_read_bytes},
     {"write_bytes:", "storage_written_bytes", &IoCounts::storage_written_bytes}}};

// Parses the text of /proc/<pid>/io; none when a field is missing.
std::optional<IoCounts> parse_proc_io(const std::string& text);

// The summary of a readings document (manifests/cpu-readings.schema.json): per incarnation and
// phase, the difference between the reading as the phase began and the next one (startup from
// zero, teardown to the exit totals). A field that is missing or of the wrong type is never read
// as zero: the error names the field by its JSON pointer.
Result<nlohmann::json> cpu_summary(const nlohmann::json& readings);

// Reads one incarnation now; nullopt when the pid is gone or is another incarnation.
std::optional<CpuSample> read_cpu_sample(pid_t pid, std::uint64_t start_time_ticks);

class CpuAccounting {
 public:
  // Starts tracking an incarnation: reads it once (the attachment proof). `worker` is its
  // worker index, or -1 for a process a worker forked.
  void track(long worker, pid_t pid, std::uint64_t start_time_ticks);
  // Reads every tracked incarnation as `phase` begins ("warmup", "measure", "teardown").
  void boundary(std::string_view phase);
  void exited(pid_t pid, const ExitTotals& totals);

  CollectorEntry finish(std::size_t workers, std::uint64_t started_ns);
  // The raw record (raw/cpu.readings.json): every reading and the exit totals, as read.
  nlohmann::json readings() const;

 private:
  struct Tracked {
    long worker;
    pid_t pid;
    std::uint64_t start_time_ticks;
    std::vector<std::pair<std::string, CpuSample>> readings;  // phase that began -> reading
    std::optional<ExitTotals> exit;
    std::optional<std::string> ended_before;  // the boundary at which it was found gone
  };
  std::vector<Tracked> tracked_;
  std::vector<std::size_t> verified_;
  std::string failure_;
  std::uint64_t records_ = 0;
};

}  // namespace jbench::collectors
