// A bundle's documents as types (docs/bundle.md): manifest.json, plan.json and runs/<id>/run.json
// as the readers of bundles use them. Each is read by one function that checks every field it
// takes (a wrong type is an input error naming the file and the JSON pointer) and parses statuses
// and trace modes once; the JSON Schemas in manifests/ say the rest of each document's shape, and
// a test holds every field read here to them (tests/model/).
//
//   auto run = read_run_document(json, "runs/r1/run.json");
//   if (!run) fail(run.error().message);  // "runs/r1/run.json /status: expected a known word, ..."
//   auto start = run->boundary("measure_start_ns");
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jbench/collectors/api/status.h"
#include "jbench/common/result.h"
#include "jbench/common/run_status.h"
#include "jbench/common/trace_mode.h"
#include "jbench/matrix/matrix.h"
#include "jbench/model/fields.h"

namespace jbench::model {

// An axis's value as a label ("workers" -> "1"), in the document's order.
using Labels = std::vector<std::pair<std::string, std::string>>;

// --- manifest.json ---
struct ManifestRun {
  std::string id;
  RunStatus status = RunStatus::not_run;
  TraceMode trace = TraceMode::baseline;
  std::string seed;  // a decimal string; empty when the entry has none
  std::uint64_t order = 0;
  std::uint64_t block = 0;
  std::optional<double> throughput_ops_per_s;  // null for a run that did not end ok
  Labels values;                               // the trace mode's among them
  std::optional<std::uint64_t> shard;          // merged bundles: the shard that ran it
};

// manifest.json /host: what makes two hosts one class, and their memory. The record holds more
// (its boot, its name); those are the session's, not the class's. A fact the host could not read
// is the text of its {"unavailable": why} record.
struct Host {
  std::optional<std::string> cpu_model;
  std::optional<std::string> cpus_usable;  // a count, as text
  std::optional<std::string> clocksource;
  std::optional<std::string> kernel_release;
  std::optional<std::string> kernel_machine;
  std::optional<double> memory_total_mib;

  // What makes two hosts' timings comparable, as "host.<key>" -> its value: host.cpu_model,
  // host.cpus_usable, host.clocksource, host.kernel.release, host.kernel.machine, those it has.
  // Two machines of one class may differ in name, boot and memory total.
  std::map<std::string, std::string> host_class() const;
};

struct Manifest {
  std::string status;  // complete, interrupted, ...
  std::vector<ManifestRun> runs;
  std::string started_utc;      // empty where not given
  std::string jbench_revision;  // /jbench/source/revision; empty where not given
  Host host;
  std::vector<MatrixOverride> overrides;  // /matrix/overrides: what ran is not what the file says
};

// manifest.json's account of how its session was planned and what it built: what a merge holds
// its shards to (the rest of a shard's manifest the merge carries on as it is).
struct ShardRecord {  // /plan/shard: the session ran share `index` of `count` of its plan
  std::uint64_t index = 0;
  std::uint64_t count = 0;
};
struct AxisFilter {  // one of /plan/filters: an axis and the values --only kept of it
  std::string axis;
  std::vector<std::string> values;
};
struct Planning {
  std::string status;                            // /status
  bool merged = false;                           // /merge is there: a bundle of `jbench merge`
  std::optional<ShardRecord> shard;              // /plan/shard; none (or null) for a whole session
  std::vector<AxisFilter> filters;               // /plan/filters
  std::optional<std::uint64_t> plan_cores;       // /plan/host: the host the plan was sized for
  std::optional<std::uint64_t> plan_memory_mib;  //
  std::optional<std::string> matrix_file;        // /matrix/file
  std::map<std::string, std::string> dataset_contents;  // /datasets: name -> content sha256
  std::vector<std::string> run_ids;                     // /runs/*/id, in order
};

// --- plan.json ---
struct PlanRun {
  std::string id;
  std::optional<std::string> cell;  // its cell's id (the trace mode's label last); null: implicit
  TraceMode trace = TraceMode::baseline;
  std::uint64_t block = 0;  // its index in Plan::blocks
  std::string seed;         // a decimal string; empty where not given
};

// A block: one repetition of one point of the matrix, whose runs are its trace modes.
struct PlanBlock {
  std::string point;  // the point's id: its values but the trace mode's ("w1.persistent.writer")
  std::uint64_t repetition = 0;  // from 1
};

struct PlanCell {
  std::string id;
  Labels values;  // as labels: a matrix's number 1 reads "1", as runs state it
};

struct Plan {
  std::vector<std::string> axes;  // the matrix's axes, in its order
  std::vector<PlanCell> cells;    // in the plan's order
  std::vector<PlanBlock> blocks;  // by index
  std::vector<PlanRun> runs;
};

// --- runs/<id>/run.json ---

// The phase boundaries a run records (CLOCK_MONOTONIC ns), in the order they happen.
inline constexpr std::array<std::string_view, 7> kBoundaryNames = {
    "startup_start_ns", "warmup_start_ns",   "warmup_end_ns",  "measure_start_ns",
    "measure_end_ns",   "teardown_start_ns", "teardown_end_ns"};

// One process incarnation of a run's cohort: (boot, pid, start time) names it across pid reuse.
struct Incarnation {
  std::int64_t pid = 0;
  std::int64_t ppid = 0;               // the harness for a worker; 0 when not given
  std::uint64_t start_time_ticks = 0;  // /proc/<pid>/stat field 22
  std::optional<std::size_t> worker;   // null for a process a worker forked
  bool forked = false;
  std::string boot_id;                    // empty when not given
  std::optional<std::string> runtime_id;  // from the worker's hello
  std::optional<std::uint64_t> registered_ns;
};

// One entry of trace_mode.collectors.
struct CollectorEntry {
  std::string name;
  std::optional<collectors::Status> status;  // absent only in hand-made documents
  std::optional<std::string> backend;        // what served it: "libbpf", "callgrind", ...
  std::optional<std::string> version;        // of the tool it ran, where it runs one
  std::optional<std::string> reason;         // why it ended as it did (empty for ok)
  std::vector<std::string> raw;              // its raw files, relative to the run's directory
  std::optional<std::uint64_t> records;
  std::optional<std::uint64_t> dropped;
  std::optional<std::uint64_t> started_ns;   // lifecycle: when it started ...
  std::optional<std::uint64_t> attached_ns;  // ... and when it was attached
  std::optional<double> cpu_sample_hz;       // the compiled tracer's on-CPU sampling rate (full)
};

// One worker's own account of the run (`workers[]`): its times, CLOCK_MONOTONIC ns, as it
// reported them; open_ns is a duration (its connection's open).
struct WorkerRecord {
  std::uint64_t index = 0;
  std::int64_t pid = 0;
  std::optional<std::uint64_t> hello_t_ns;
  std::optional<std::uint64_t> ready_t_ns;
  std::optional<std::uint64_t> canary_t_ns;
  std::optional<std::uint64_t> open_ns;
  std::optional<std::uint64_t> measure_start_ns;
  std::optional<std::uint64_t> measure_end_ns;
};

struct RunDocument {
  std::string id;
  RunStatus status = RunStatus::not_run;
  std::optional<TraceMode> trace;
  Labels values;
  // Each boundary the run reached, by kBoundaryNames' name.
  std::vector<std::pair<std::string, std::uint64_t>> boundaries;
  std::vector<Incarnation> cohort;
  std::vector<WorkerRecord> workers;
  // The points inside the startup phase the harness timed (`startup_steps`: spawned_ns,
  // collectors_attached_ns, released_ns, canaries_verified_ns, ...), by name.
  std::vector<std::pair<std::string, std::uint64_t>> startup_steps;
  std::vector<CollectorEntry> collectors;

  std::optional<std::uint64_t> boundary(std::string_view name) const;
  std::optional<std::uint64_t> startup_step(std::string_view name) const;
  // The worker `index` whose pid is `pid`, or nullptr.
  const WorkerRecord* worker(std::uint64_t index, std::int64_t pid) const;
  const CollectorEntry* collector(std::string_view name) const;
};

// Each reads one parsed document; `file` names it in errors, `log` collects the pointers read.
Result<Manifest> read_manifest(const nlohmann::json& doc, const std::string& file,
                               FieldLog* log = nullptr);
// The parts of a manifest a merge holds its shards to, read alone (the rest of a shard's manifest
// is the merge's own business): /host and /matrix/overrides.
Result<Host> read_manifest_host(const nlohmann::json& manifest, const std::string& file);
Result<std::vector<MatrixOverride>> read_manifest_overrides(const nlohmann::json& manifest,
                                                            const std::string& file);
Result<Planning> read_manifest_planning(const nlohmann::json& manifest, const std::string& file,
                                        FieldLog* log = nullptr);
Result<Plan> read_plan(const nlohmann::json& doc, const std::string& file, FieldLog* log = nullptr);
Result<RunDocument> read_run_document(const nlohmann::json& doc, const std::string& file,
                                      FieldLog* log = nullptr);

}  // namespace jbench::model
