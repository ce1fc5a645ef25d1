// The collector's summary: per incarnation x phase x call, the count, the errors, the total and
// the largest duration and a log2 latency histogram; the requests (ioctl, fcntl, flock) by name;
// and, from per-call records (full), which descriptors and files the calls went to. The same
// document from either source: per-call records (full) or totals aggregated in the kernel
// (light). Pure.
//
// The calls of jbench's trace-bridge writer thread (the observer's own) are kept apart from the
// workload's where the backend tells them apart (`thread_roles`: "told_apart"; else "mixed").
//
// JSON (ns as decimal strings; histogram buckets are [lower_ns, count], a bucket holding
// [lower, 2*lower), the first one only 0):
//   {"histogram": "log2_ns", "thread_roles": "told_apart"|"mixed",
//    "incarnations": [{"pid", "start_time_ticks", "worker_index" (or null), "origin", "parent",
//       "phases": {"<phase>": {"<call>": {"count", "errors", "total_ns", "max_ns",
//                                          "histogram", "requests"? ({"<name>": {"count",
//                                          "errors", "total_ns"?}}), "files"?,
//                                          "files_omitted"?}}},
//       "bridge_writer_phases"?: {the same, for the bridge writer thread's calls}}]}
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "incarnations.h"
#include "observations.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {

// At most this many descriptor/file rows per (incarnation, phase, call); the rest are counted.
inline constexpr std::size_t kMaxFileRows = 32;

struct RequestTotals {
  std::uint64_t count = 0;
  std::uint64_t errors = 0;
  std::uint64_t total_ns = 0;
  bool timed = true;  // every call's time is in total_ns (a backend's totals may not say)
};

struct FileTotals {
  std::uint64_t count = 0;
  std::uint64_t errors = 0;
  std::uint64_t total_ns = 0;
};

struct FileKey {
  std::int64_t fd = -1;
  std::string path;  // "" unknown
  std::optional<FileIdentity> file;
  auto operator<=>(const FileKey&) const = default;
};

struct CallTotals {
  std::uint64_t count = 0;
  std::uint64_t errors = 0;
  std::uint64_t total_ns = 0;
  std::uint64_t max_ns = 0;
  std::map<std::uint64_t, std::uint64_t> log2_buckets;
  std::map<std::string, RequestTotals> requests;
  std::map<FileKey, FileTotals> files;
  bool has_files = false;  // full: files are known (even if the list is empty)
};

// The lower bound of the log2 bucket holding `ns` (0, 1, 2, 4, 8, ...), as bpftrace's hist().
std::uint64_t log2_bucket(std::uint64_t ns);

class SummaryBuilder {
 public:
  // `thread_roles`: the calls say which thread role made them (else all count as workload's).
  SummaryBuilder(const Incarnations& incarnations, bool thread_roles)
      : incarnations_(incarnations), thread_roles_(thread_roles) {}

  // One per-call record of incarnation `who`, its file row resolved by the caller.
  void add_call(std::size_t who, const CallRecord& call, const FileKey& file);
  // Kernel totals of incarnation `who`.
  void add_totals(std::size_t who, const TotalsKey& key, const Totals& totals);

  using CellKey = std::tuple<std::size_t, ThreadRole, int, int>;  // (who, role, phase, call)
  const std::map<CellKey, CallTotals>& cells() const { return cells_; }
  std::uint64_t calls() const;  // over every cell but the other system calls' (syscall:other)
  nlohmann::json to_json() const;

 private:
  nlohmann::json phases_json(std::size_t who, ThreadRole role) const;

  const Incarnations& incarnations_;
  bool thread_roles_;
  std::map<CellKey, CallTotals> cells_;
};

nlohmann::json histogram_json(const std::map<std::uint64_t, std::uint64_t>& buckets);
nlohmann::json requests_json(const std::map<std::string, RequestTotals>& requests);
// A backend's totals of one call added to its requests by name.
void add_requests(std::map<std::string, RequestTotals>& named, const TracedCall& call,
                  const Totals& totals);

}  // namespace jbench::collectors::syscall_detail
