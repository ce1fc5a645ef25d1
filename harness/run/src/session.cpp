// run_session(): the plan's runs in order, each into the staging bundle as it finishes (a late
// crash loses nothing already run), then the checks, SHA256SUMS and the atomic rename.
#include "jbench/run/session.h"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "datasets.h"
#include "jbench/bundle/staging_bundle.h"
#include "jbench/collectors/modes/summaries.h"
#include "jbench/common/clock.h"
#include "jbench/doctor/capabilities.h"
#include "jbench/plan/plan_output.h"
#include "jbench/proc/interrupt.h"
#include "jbench/provenance/host_fingerprint.h"
#include "jbench/provenance/noise.h"
#include "jbench/provenance/retained.h"
#include "jbench/results/summary.h"
#include "jbench/validate/validate.h"
#include "probe_check.h"
#include "progress.h"
#include "run_one.h"
#include "session_documents.h"

namespace jbench {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

std::string utc_now(const char* format) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

// This jbench executable; empty when /proc/self/exe cannot be read.
fs::path self_exe() {
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe;
}

std::string self_dir() {
  const fs::path exe = self_exe();
  return exe.empty() ? std::string(".") : exe.parent_path().string();
}

// The databases live in the scratch directory: it must be creatable and writable before any
// worker starts, or every run would fail for the same reason.
std::string prepare_scratch(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fmt::format("cannot create the scratch directory {}: {}", dir, ec.message());
  const std::string probe = dir + "/.write-test";
  FILE* f = std::fopen(probe.c_str(), "we");
  if (!f) {
    return fmt::format("the scratch directory {} is not writable: {}", dir, std::strerror(errno));
  }
  std::fclose(f);
  std::remove(probe.c_str());
  return {};
}

// While workers run, a write to one that just died must be an error the runner records
// (EPIPE), not a SIGPIPE that kills the harness and loses the bundle.
class IgnoreSigpipe {
 public:
  IgnoreSigpipe() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous_);
  }
  ~IgnoreSigpipe() { sigaction(SIGPIPE, &previous_, nullptr); }
  IgnoreSigpipe(const IgnoreSigpipe&) = delete;
  IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;

 private:
  struct sigaction previous_ {};
};

// Writes a document, remembering a failure (full disk, I/O error) instead of stopping: the
// bundle is then finalized as invalid, with everything that could be written.
class Writer {
 public:
  explicit Writer(StagingBundle& bundle) : bundle_(bundle) {}
  void json(const std::string& path, const Json& doc) { note(bundle_.write_json(path, doc)); }
  void text(const std::string& path, std::string_view bytes) {
    note(bundle_.write_file(path, bytes));
  }
  void log(const std::string& line) {
    note(bundle_.append_line("logs/session.log", fmt::format("{} {}", utc_now("%FT%TZ"), line)));
  }
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  void note(const Status& s) {
    if (!s.ok()) failures_.push_back(s.error().message);
  }
  StagingBundle& bundle_;
  std::vector<std::string> failures_;
};

}  // namespace

SessionOutcome run_session(const Plan& plan, const SessionOptions& given, std::ostream& log) {
  const Matrix& m = *plan.matrix;
  SessionOutcome outcome;
  // Every path handed to another process is absolute: workers run in their own scratch
  // directories, so a relative --out or --worker-dir would point nowhere for them.
  SessionOptions options = given;
  for (std::string* path : {&options.out_dir, &options.worker_dir, &options.scratch_dir}) {
    if (path->empty()) continue;
    std::error_code ec;
    if (auto abs = fs::absolute(*path, ec); !ec) *path = abs.lexically_normal().string();
  }
  const std::string worker_dir = options.worker_dir.empty() ? self_dir() : options.worker_dir;
  const std::string worker = fmt::format("{}/jbench-{}-worker", worker_dir, m.workload.kind);
  if (access(worker.c_str(), X_OK) != 0) {
    outcome.exit_code = 2;
    outcome.error = fmt::format(
        "the workload binary {} does not exist or is not executable; build jbench "
        "(bash ci/build.sh) or point --worker-dir at the folder that holds it",
        worker);
    return outcome;
  }
  // Traced runs read the target's probes: a target that does not honour the bridge's ABI
  // contract is refused before anything runs.
  const bool traced = std::any_of(plan.runs.begin(), plan.runs.end(),
                                  [](const Run& r) { return r.trace != TraceMode::baseline; });
  if (traced) {
    const std::string bridge_library =
        (fs::path(worker_dir).parent_path() / "lib" / "libjbench_bridge.so").string();
    if (auto problem = run::probe_contract_problem(worker, bridge_library); !problem.empty()) {
      outcome.exit_code = 2;
      outcome.error = problem;
      return outcome;
    }
  }
  const std::string name = options.bundle_name.empty()
                               ? fmt::format("{}-{}", m.name, utc_now("%Y%m%dT%H%M%SZ"))
                               : options.bundle_name;
  const std::string scratch = options.scratch_dir.empty()
                                  ? fmt::format("{}/.scratch-{}", options.out_dir, name)
                                  : options.scratch_dir;
  if (auto problem = prepare_scratch(scratch); !problem.empty()) {
    outcome.exit_code = 2;
    outcome.error = problem;
    return outcome;
  }
  auto staged = StagingBundle::create(options.out_dir, name);
  if (!staged) {
    std::error_code ec;
    fs::remove_all(scratch, ec);
    outcome.exit_code = 2;
    outcome.error = staged.error().message;
    return outcome;
  }
  StagingBundle bundle = std::move(staged.value());
  Writer write(bundle);
  // What tracing this host can do, once per session. Attaching a probe for real costs a second
  // or two: it is done when a run of the plan needs a tracer.
  ProbeOptions probe;
  probe.try_attach = traced;
  const Json capabilities = probe_capabilities(probe);
  // The allocation sampler, preloaded into native workers in light and full: lib/ beside bin/.
  std::string alloc_library;
  if (const auto lib = fs::path(self_dir()).parent_path() / "lib" / "libjbench_alloc.so";
      access(lib.c_str(), R_OK) == 0) {
    alloc_library = lib.string();
  }
  run::SessionDocuments docs(plan, name, worker);
  docs.started(capabilities, !alloc_library.empty());
  write.log(
      fmt::format("session {} started: {} runs, workers from {}", name, plan.runs.size(), worker));
  write.text("matrix.yaml", m.source_text);
  RetainedProvenance retained(bundle, m.limits.provenance_bytes());
  {
    std::ostringstream plan_json;
    write_plan_json(plan, plan_json);
    write.text("plan.json", plan_json.str());
    retained.configuration(m.source_text, plan_json.str());
  }
  write.json("provenance/build.json", run::build_provenance());
  write.json("capabilities.json", capabilities);
  run::DatasetCache datasets(scratch, worker, m.seed,
                             std::max<std::uint32_t>(600, m.limits.run_timeout_s));
  proc::InterruptWatch interrupt;
  IgnoreSigpipe ignore_sigpipe;
  std::vector<std::string> run_kinds;
  for (const Run& r : plan.runs) run_kinds.emplace_back(trace_mode_name(r.trace));
  run::Progress progress(log, options.terminal, std::move(run_kinds));
  std::map<std::string, CellLine> cells;  // by cell id, in first-run order below
  std::vector<std::string> cell_order;

  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    const Run& r = plan.runs[i];
    const Block& block = plan.blocks[r.block];
    const std::string id = run_id(plan, r);
    const std::string dir = "runs/" + id;
    if (interrupt.interrupted()) {
      docs.run_not_run(i, id, "the session was interrupted before this run");
      continue;
    }
    progress.starting(i, id);
    const Dataset& dataset = m.datasets[block.point[static_cast<std::size_t>(Axis::dataset)]];
    const std::uint64_t build_start = monotonic_ns();
    const run::BuiltDataset& built = datasets.get(dataset);
    if (monotonic_ns() - build_start > 1'000'000'000ULL) {
      write.log(fmt::format("dataset '{}' built in {:.1f} s (outside every run's phases)",
                            dataset.name, static_cast<double>(monotonic_ns() - build_start) / 1e9));
    }
    run::RunSpec spec;
    spec.plan = &plan;
    spec.run_index = i;
    spec.run_id = id;
    spec.worker_binary = worker;
    spec.scratch_dir = fmt::format("{}/runs/{}", scratch, id);
    spec.logs_dir = fmt::format("{}/{}/logs", bundle.root(), dir);
    spec.run_dir = fmt::format("{}/{}", bundle.root(), dir);
    spec.alloc_library = alloc_library;
    spec.dataset = &built;
    spec.startup_timeout_ms = options.startup_timeout_ms;
    // Noise: what else used the CPU around the run. The harness itself counts as ours.
    spec.sample_noise = [&](std::vector<pid_t> ours) {
      ours.push_back(getpid());
      return to_json(sample_noise(std::chrono::milliseconds(options.noise_window_ms), ours));
    };
    spec.on_measured = [&](const std::vector<pid_t>& pids) { retained.run_processes(id, pids); };
    const std::uint64_t started = monotonic_ns();
    run::RunRecord record = run::execute_run(spec, interrupt);
    const std::uint64_t elapsed = monotonic_ns() - started;

    Json run_doc = docs.run_document(i, id, record, built);
    write.json(dir + "/run.json", run_doc);
    retained.run_finished(id, run_doc, spec.run_dir, record.transcript);
    for (std::size_t w = 0; w < record.results.size(); ++w) {
      // Named by the worker that sent it: in a failed run a worker's result may be missing, and
      // the others must not shift into its name.
      const auto index = record.results[w].value("worker_index", w);
      write.json(fmt::format("{}/raw/worker-{}.result.json", dir, index), record.results[w]);
    }
    write.text(dir + "/logs/protocol.jsonl", record.transcript);
    for (const auto& [path, doc] : record.raw_documents) write.json(dir + "/" + path, doc);
    Json summary = summarize_run(record.results, record.run);
    // From the raw files just written, exactly as the validator recomputes it.
    summary["collectors"] = collectors::summarize_collectors(spec.run_dir, run_doc);
    write.json(dir + "/summary.json", summary);
    docs.run_finished(i, id, record.status, record.reason, summary);
    write.log(fmt::format("run {} {}{}", id, record.status,
                          record.reason.empty() ? "" : ": " + record.reason));
    progress.finished(i, id, record.status, record.reason, elapsed);

    const std::string cell = cell_id(plan, r);
    if (!cells.count(cell)) cell_order.push_back(cell);
    CellLine& line = cells[cell];
    line.cell = cell;
    ++line.runs;
    if (record.status == "ok") {
      ++line.ok;
      const Json& workers = summary["workers"];
      if (workers["jain_fairness_index"].is_number()) {
        line.fairness.push_back(workers["jain_fairness_index"].get<double>());
      }
      line.worker_runs += workers["count"].get<std::size_t>();
      line.starved_worker_runs += workers["starved"].get<std::size_t>();
      line.throughput.push_back(summary["throughput_ops_per_s"].get<double>());
      const auto& all = summary["latency"]["all_operations"];
      if (all["p50_ns"].is_string())
        line.p50_ns.push_back(std::stod(all["p50_ns"].get<std::string>()));
      if (all["p99_ns"].is_string())
        line.p99_ns.push_back(std::stod(all["p99_ns"].get<std::string>()));
    }
    std::error_code ec;
    fs::remove_all(spec.scratch_dir, ec);
  }
  progress.done();

  const bool interrupted = interrupt.interrupted();
  docs.finished(interrupted, datasets.to_json());
  write.json("provenance/index.json", retained.index());
  Json manifest = docs.manifest();
  manifest["write_failures"] = write.failures();
  write.json("manifest.json", manifest);
  // The same validator anyone runs later, less the checksums that come after it.
  const ValidationReport report = validate_bundle(bundle.root(), BundleStage::staged);
  const bool valid = report.valid() && write.failures().empty();
  Json validation = report_to_json(report);
  validation["bundle"] = name;
  validation["stage"] = "staged: every check but SHA256SUMS, which is written after this file";
  validation["valid"] = valid;
  validation["write_failures"] = write.failures();
  write.json("validation.json", validation);
  std::error_code ec;
  fs::remove_all(scratch, ec);

  const Outcome bundle_outcome =
      !valid ? Outcome::invalid : (interrupted ? Outcome::interrupted : Outcome::complete);
  auto final_path = bundle.finalize(bundle_outcome);
  std::vector<CellLine> table;
  for (const auto& c : cell_order) table.push_back(cells[c]);
  log << '\n' << format_cell_table(table);
  if (!final_path) {
    outcome.exit_code = 1;
    outcome.error = final_path.error().message;
    outcome.bundle_path = bundle.root();
    log << fmt::format("\nthe bundle could not be finalized: {}\nwhat was written stays in {}\n",
                       outcome.error, bundle.root());
    return outcome;
  }
  outcome.bundle_path = final_path.value();
  const bool all_ok = docs.all_runs_ok();
  const auto unmeasured = docs.unmeasured_values();
  outcome.exit_code = (valid && !interrupted && all_ok && unmeasured.empty()) ? 0 : 1;
  // Nothing measured is never success: name each value the plan meant to measure and did not.
  for (const auto& line : unmeasured) log << fmt::format("not measured: {}\n", line);
  // A full disk can take validation.json with it: say here what could not be written.
  const auto& failures = write.failures();
  for (std::size_t i = 0; i < failures.size() && i < 5; ++i) {
    log << fmt::format("not written: {}\n", failures[i]);
  }
  if (failures.size() > 5) log << fmt::format("... and {} more\n", failures.size() - 5);
  log << fmt::format("\nbundle: {}{}\n", outcome.bundle_path,
                     !valid        ? " (INVALID: see validation.json)"
                     : interrupted ? " (interrupted)"
                     : !all_ok     ? " (some runs did not succeed: see manifest.json)"
                                   : "");
  // Where to look next, with the paths filled in.
  const fs::path jbench_exe = self_exe();
  log << fmt::format(
      "next: {0} report {1}          # what each trace mode cost\n"
      "      {0} validate {1}        # re-check the evidence, anywhere, later\n"
      "      (cd {1} && sha256sum -c SHA256SUMS)\n",
      jbench_exe.empty() ? std::string("jbench") : jbench_exe.string(), outcome.bundle_path);
  return outcome;
}

}  // namespace jbench
