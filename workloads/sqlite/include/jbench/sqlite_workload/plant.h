// The fsync plant: a known cost put into every write transaction on purpose, so that an
// attribution report (`jbench report`, docs/attribution.md) can be checked against ground truth.
// With params.plant_fsync_file set, each write transaction appends one fixed kRecordBytes record
// to that file beside the database and fdatasyncs it, after its statements and before COMMIT,
// inside the transaction's span. The worker times the pair itself, on the clock of every other
// measurement, as a measure independent of any tracer (docs/worker-protocol.md, "The fsync
// plant").
//
//   auto plant = FsyncPlant::open("/run/dir/plant.log");   // at configure, once per worker
//   auto t = plant.value().fire();                          // in a write transaction
//   if (t) total.add(*t); else fail(t.error().message);
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "jbench/common/result.h"

namespace jbench::sqlite_workload {

// One fire's cost, CLOCK_MONOTONIC ns.
struct PlantTiming {
  std::uint64_t write_ns = 0;      // write(2) and fdatasync(2) together
  std::uint64_t fdatasync_ns = 0;  // fdatasync(2) alone
};

// What a phase's fires add up to (only fires that succeeded).
struct PlantTotals {
  std::uint64_t calls = 0;
  std::uint64_t write_ns = 0;
  std::uint64_t fdatasync_ns = 0;
  void add(const PlantTiming& t) {
    ++calls;
    write_ns += t.write_ns;
    fdatasync_ns += t.fdatasync_ns;
  }
};

// Owns the plant file's descriptor: move-only, closed on destruction.
class FsyncPlant {
 public:
  static constexpr std::size_t kRecordBytes = 512;

  // Opens `path` (absolute) O_WRONLY|O_CREAT|O_APPEND|O_CLOEXEC, mode 0644. O_APPEND, so the
  // workers of one run can share the file and every record lands whole at its end.
  static Result<FsyncPlant> open(std::string path);

  FsyncPlant(FsyncPlant&& other) noexcept;
  FsyncPlant& operator=(FsyncPlant&& other) noexcept;
  FsyncPlant(const FsyncPlant&) = delete;
  FsyncPlant& operator=(const FsyncPlant&) = delete;
  ~FsyncPlant();

  // Appends one record and fdatasyncs it. An error (with errno) if either call fails or the
  // write is short: a plant that did not happen must not be counted as one that did.
  Result<PlantTiming> fire();

  const std::string& path() const { return path_; }

 private:
  FsyncPlant(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::string path_;
  int fd_ = -1;
};

// The plant file's path: `name` in the directory of `db` (an absolute path).
std::string plant_path(const std::string& db, const std::string& name);

}  // namespace jbench::sqlite_workload
