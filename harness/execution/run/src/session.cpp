// run_session(): the pipeline of one session as named steps — set up, stage the session's
// documents, then for each run of the plan execute, record and summarise it into the staging
// bundle as it finishes (a late crash loses nothing already run), write the manifest, seal.
#include "jbench/run/session.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>

#include "datasets.h"
#include "jbench/collectors/modes/summaries.h"
#include "jbench/common/clock.h"
#include "jbench/common/path_search.h"
#include "jbench/doctor/capabilities.h"
#include "jbench/matrix/oracle_matrix.h"
#include "jbench/oracle_pass/oracle_bundle.h"
#include "jbench/oracle_pass/oracle_pass.h"
#include "jbench/plan/plan_output.h"
#include "jbench/proc/interrupt.h"
#include "jbench/provenance/host_fingerprint.h"
#include "jbench/provenance/noise.h"
#include "jbench/provenance/retained.h"
#include "jbench/run_summaries/summary.h"
#include "jbench/seal/evidence_bundle.h"
#include "lockstep.h"
#include "progress.h"
#include "run_one.h"
#include "session_documents.h"
#include "session_setup.h"

namespace jbench {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

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

// A run's own files that the provenance store now holds (the compiled tracer's object, the same
// in every traced run) leave the run directory: the collector entry that named one in
// `backend_raw` names the stored copy instead, in `stored_once` ({file: "provenance/objects/
// <sha256>"}), so the bundle keeps its bytes once.
void drop_stored_once(Json& run_doc, const std::string& run_dir,
                      const std::vector<StoredOnce>& stored) {
  if (stored.empty() || !run_doc.contains("trace_mode")) return;
  for (Json& c : run_doc["trace_mode"]["collectors"]) {
    if (!c.contains("backend_raw") || !c["backend_raw"].is_array()) continue;
    Json kept = Json::array();
    for (const Json& f : c["backend_raw"]) {
      const auto s = std::find_if(stored.begin(), stored.end(),
                                  [&](const StoredOnce& o) { return f == o.file; });
      if (s == stored.end() || ::unlink((run_dir + "/" + s->file).c_str()) != 0) {
        kept.push_back(f);
        continue;
      }
      c["stored_once"][s->file] = s->object;
    }
    c["backend_raw"] = std::move(kept);
  }
}

// The session's writes into its bundle, each failure recorded there (the bundle is then sealed
// invalid with everything that could be written): a run's documents on one line, the session
// log with the time of each line.
class Writer {
 public:
  explicit Writer(EvidenceBundle& bundle) : bundle_(bundle) {}
  void json(const std::string& path, const Json& doc) { bundle_.json(path, doc); }
  void run_json(const std::string& path, const Json& doc) {
    bundle_.json(path, doc, StagingBundle::Layout::compact);
  }
  void text(const std::string& path, std::string_view bytes) { bundle_.text(path, bytes); }
  void log(const std::string& line) {
    bundle_.append_line("logs/session.log", fmt::format("{} {}", utc_now("%FT%TZ"), line));
  }

 private:
  EvidenceBundle& bundle_;
};

std::vector<std::string> run_kinds(const Plan& plan) {
  std::vector<std::string> kinds;
  for (const Run& r : plan.runs) kinds.emplace_back(trace_mode_name(r.trace));
  return kinds;
}

// A session once its setup held: the pipeline's steps, in the order run_session takes them.
class Session {
 public:
  Session(const Plan& plan, run::SessionSetup setup, EvidenceBundle bundle, std::ostream& log)
      : plan_(plan),
        m_(*plan.matrix),
        setup_(std::move(setup)),
        bundle_(std::move(bundle)),
        log_(log),
        write_(bundle_),
        docs_(plan, setup_.name, setup_.worker),
        retained_(bundle_.staging(), m_.limits.provenance_bytes()),
        datasets_(setup_.scratch, setup_.worker, m_.seed,
                  std::max<std::uint32_t>(600, m_.limits.run_timeout_s)),
        progress_(log, setup_.options.terminal, run_kinds(plan)) {}

  void stage_documents();
  // Meets another session before each run's measure phase (a duet).
  void meet_in(run::Lockstep lockstep) { lockstep_.emplace(std::move(lockstep)); }
  void run_oracle(const OracleMatrix& oracle);
  void run(std::size_t index);
  void write_manifest();
  SessionOutcome seal();

 private:
  void add_to_cell_table(const Run& r, run::RunStatus status, const RunFigures& figures);
  run::RunSpec run_spec(std::size_t i, const std::string& id, const std::string& dir,
                        const run::BuiltDataset& built, bool reuses_noise);
  Json record_run(std::size_t i, const std::string& id, const std::string& dir,
                  const run::RunSpec& spec, const run::RunRecord& record,
                  const run::BuiltDataset& built);
  nlohmann::json sample_noise_now() const {
    return to_json(
        sample_noise(std::chrono::milliseconds(setup_.options.noise_window_ms), {getpid()}));
  }
  void print_closing_lines(const SessionOutcome& outcome, const Sealed& sealed);

  const Plan& plan_;
  const Matrix& m_;
  run::SessionSetup setup_;
  EvidenceBundle bundle_;
  std::ostream& log_;
  Writer write_;
  run::SessionDocuments docs_;
  RetainedProvenance retained_;
  run::DatasetCache datasets_;
  proc::InterruptWatch interrupt_;
  IgnoreSigpipe ignore_sigpipe_;
  run::Progress progress_;
  std::map<std::string, CellLine> cells_;  // by cell id
  // Where each cell's row goes: its point in the plan's canonical order (axis order), then its
  // baseline first and its traced modes after it in the trace axis's order.
  std::map<std::string, std::pair<std::uint32_t, std::uint32_t>> cell_rank_;
  std::optional<std::pair<std::string, nlohmann::json>> noise_after_last_run_;  // run id, sample
  std::optional<run::Lockstep> lockstep_;  // its end is marked when the session ends
};

// matrix.yaml, plan.json, the build's provenance, and what tracing this host can do (probed once
// per session; attaching a probe for real costs a second or two, so only when a run needs it).
void Session::stage_documents() {
  ProbeOptions probe;
  probe.try_attach = setup_.traced;
  const Json capabilities = probe_capabilities(probe);
  docs_.started(capabilities, !setup_.alloc_library.empty());
  write_.log(fmt::format("session {} started: {} runs, workers from {}", setup_.name,
                         plan_.runs.size(), fmt::join(setup_.worker, " ")));
  write_.text("matrix.yaml", m_.source_text);
  std::ostringstream plan_json;
  write_plan_json(plan_, plan_json);
  write_.text("plan.json", plan_json.str());
  retained_.configuration(m_.source_text, plan_json.str());
  write_.json("provenance/build.json", run::build_provenance());
  write_.json("capabilities.json", capabilities);
}

// What run `i` is given: its identity and folders, the worker, the dataset, and the hooks around
// its phases (noise samples, the retained processes, a duet's meeting).
run::RunSpec Session::run_spec(std::size_t i, const std::string& id, const std::string& dir,
                               const run::BuiltDataset& built, bool reuses_noise) {
  run::RunSpec spec;
  spec.plan = &plan_;
  spec.run_index = i;
  spec.run_id = id;
  spec.worker = setup_.worker;
  spec.scratch_dir = fmt::format("{}/runs/{}", setup_.scratch, id);
  spec.logs_dir = fmt::format("{}/{}/logs", bundle_.root(), dir);
  spec.run_dir = fmt::format("{}/{}", bundle_.root(), dir);
  spec.alloc_library = setup_.alloc_library;
  spec.dataset = &built;
  spec.startup_timeout_ms = setup_.options.startup_timeout_ms;
  // Noise: what else used the CPU around the run (the harness itself counts as ours). The window
  // after one run is the window before the next, sampled once: the next run's copy names the run
  // it was sampled after. Not across a dataset build, which ran between them.
  if (!reuses_noise) noise_after_last_run_.reset();
  spec.noise_before = [this] {
    if (!noise_after_last_run_) return sample_noise_now();
    nlohmann::json shared = noise_after_last_run_->second;
    shared["sampled_after_run"] = noise_after_last_run_->first;
    return shared;
  };
  spec.noise_after = [this, id] {
    nlohmann::json sample = sample_noise_now();
    noise_after_last_run_.emplace(id, sample);
    return sample;
  };
  spec.on_measured = [this, id](const std::vector<pid_t>& pids) {
    retained_.run_processes(id, pids);
  };
  if (lockstep_) {
    spec.before_measure = [this, i](std::uint64_t max_wait_ns) {
      return lockstep_->meet(i + 1, monotonic_ns() + max_wait_ns);
    };
  }
  return spec;
}

// Record: run.json, each worker's result, the transcript, the collectors' raw documents.
Json Session::record_run(std::size_t i, const std::string& id, const std::string& dir,
                         const run::RunSpec& spec, const run::RunRecord& record,
                         const run::BuiltDataset& built) {
  Json run_doc = docs_.run_document(i, id, record, built);
  drop_stored_once(run_doc, spec.run_dir,
                   retained_.run_finished(id, run_doc, spec.run_dir, record.transcript));
  write_.run_json(dir + "/run.json", run_doc);
  for (std::size_t w = 0; w < record.results.size(); ++w) {
    // Named by the worker that sent it: in a failed run a worker's result may be missing, and
    // the others must not shift into its name.
    const auto index = record.results[w].value("worker_index", w);
    write_.run_json(fmt::format("{}/raw/worker-{}.result.json", dir, index), record.results[w]);
  }
  write_.text(dir + "/logs/protocol.jsonl", record.transcript);
  for (const auto& [path, doc] : record.raw_documents) write_.run_json(dir + "/" + path, doc);
  return run_doc;
}

// One run of the plan: execute it, record what it left, summarise it from what was recorded.
void Session::run(std::size_t i) {
  const Run& r = plan_.runs[i];
  const Block& block = plan_.blocks[r.block];
  const std::string id = run_id(plan_, r);
  const std::string dir = "runs/" + id;
  if (interrupt_.interrupted()) {
    docs_.run_not_run(i, id, "the session was interrupted before this run");
    return;
  }
  progress_.starting(i, id);
  const Dataset& dataset = m_.datasets[block.point[static_cast<std::size_t>(Axis::dataset)]];
  const bool reuses_noise = datasets_.has(dataset);
  const std::uint64_t build_start = monotonic_ns();
  const run::BuiltDataset& built = datasets_.get(dataset);
  if (monotonic_ns() - build_start > 1'000'000'000ULL) {
    write_.log(fmt::format("dataset '{}' built in {:.1f} s (outside every run's phases)",
                           dataset.name, static_cast<double>(monotonic_ns() - build_start) / 1e9));
  }
  const run::RunSpec spec = run_spec(i, id, dir, built, reuses_noise);
  const std::uint64_t started = monotonic_ns();
  run::RunRecord record = run::execute_run(spec, interrupt_);
  if (lockstep_) lockstep_->pass(i + 1);
  const std::uint64_t elapsed = monotonic_ns() - started;
  const Json run_doc = record_run(i, id, dir, spec, record, built);

  // Summarise, from the raw files just written, exactly as the validator recomputes it.
  RunSummary summary = summarize(record.results, record.run);
  summary.document["collectors"] = collectors::summarize_collectors(spec.run_dir, run_doc);
  write_.run_json(dir + "/summary.json", summary.document);
  const std::string_view status = run_status_name(record.status);
  docs_.run_finished(i, id, std::string(status), record.reason, summary.document);
  write_.log(
      fmt::format("run {} {}{}", id, status, record.reason.empty() ? "" : ": " + record.reason));
  progress_.finished(i, id, std::string(status), record.reason, elapsed);
  add_to_cell_table(r, record.status, summary.figures);
  std::error_code ec;
  fs::remove_all(spec.scratch_dir, ec);
}

void Session::add_to_cell_table(const Run& r, run::RunStatus status, const RunFigures& figures) {
  const std::string cell = cell_id(plan_, r);
  CellLine& line = cells_[cell];
  if (line.cell.empty()) {
    const Block& block = plan_.blocks[r.block];
    std::uint32_t point = kNoCell;  // the block's first explicit cell: where its point stands
    for (std::uint32_t i = block.first_run; i < block.first_run + block.run_count; ++i) {
      point = std::min(point, plan_.runs[i].cell);
    }
    line.cell = cell;
    line.point = point_id(*plan_.matrix, block.point);
    line.baseline = r.trace == TraceMode::baseline;
    line.counted = r.trace == TraceMode::counted;
    cell_rank_[cell] = {point, line.baseline ? 0 : 1 + r.cell};
  }
  line.add_run(status == run::RunStatus::ok, figures);
}

// Correctness before speed: the pass the matrix's `oracle:` names runs before any timing, and its
// record goes into the bundle under oracle/. A pass that fails (or cannot run) does not stop the
// runs — they are evidence too — but validate calls the bundle unproven (docs/oracle.md).
void Session::run_oracle(const OracleMatrix& oracle) {
  log_ << fmt::format("oracle: running {} first: the correctness pass this matrix stands on\n",
                      oracle.file);
  oracle_pass::PassOptions o;
  o.work_dir = (fs::path(setup_.scratch) / "oracle").string();
  o.ledger_worker = (fs::path(setup_.helpers_dir) / "jbench-ledger-worker").string();
  o.log = &log_;
  o.should_stop = [this] { return interrupt_.interrupted(); };
  std::error_code ec;
  fs::create_directories(o.work_dir, ec);
  auto record = oracle_pass::run_oracle_pass(oracle, o);
  fs::remove_all(o.work_dir, ec);
  if (!record) {
    write_.log("the oracle pass could not run: " + record.error().message);
    log_ << fmt::format("oracle: could not run ({}); the bundle will be unproven\n",
                        record.error().message);
    return;
  }
  write_.log(std::string("oracle pass: ") + (record->passed() ? "passed" : "FAILED"));
  oracle_pass::write_oracle_record(bundle_, "oracle/", *record, oracle);
  log_ << (record->passed() ? "oracle: passed\n"
                            : "oracle: FAILED; the runs go on, and the bundle will be unproven\n");
}

// The manifest: the session's last document before the seal.
void Session::write_manifest() {
  progress_.done();
  docs_.finished(interrupt_.interrupted(), datasets_.to_json());
  write_.json("provenance/index.json", retained_.index());
  Json manifest = docs_.manifest();
  manifest["write_failures"] = bundle_.failures();
  write_.json("manifest.json", manifest);
}

// The seal (validation.json, SHA256SUMS, the atomic rename), the cell table, and what to look at
// next.
SessionOutcome Session::seal() {
  std::error_code ec;
  fs::remove_all(setup_.scratch, ec);
  const bool interrupted = interrupt_.interrupted();
  auto sealed = bundle_.seal(interrupted);
  std::vector<CellLine> table;
  for (const auto& [cell, line] : cells_) table.push_back(line);
  std::stable_sort(table.begin(), table.end(), [this](const CellLine& a, const CellLine& b) {
    return cell_rank_.at(a.cell) < cell_rank_.at(b.cell);
  });
  log_ << '\n' << format_cell_table(table);
  SessionOutcome outcome;
  if (!sealed) {
    outcome.bundle_path = bundle_.root();
    outcome.not_written = bundle_.failures();
    outcome.not_written.push_back(sealed.error().message);
    log_ << fmt::format("\nthe bundle could not be finalized: {}\nwhat was written stays in {}\n",
                        sealed.error().message, bundle_.root());
    return outcome;
  }
  outcome.bundle_path = sealed->path;
  outcome.not_written = sealed->failures;
  const auto unmeasured = docs_.unmeasured_values();
  outcome.complete =
      sealed->outcome == Outcome::complete && docs_.all_runs_ok() && unmeasured.empty();
  // Nothing measured is never success: name each value the plan meant to measure and did not.
  for (const auto& line : unmeasured) log_ << fmt::format("not measured: {}\n", line);
  print_closing_lines(outcome, *sealed);
  return outcome;
}

void Session::print_closing_lines(const SessionOutcome& outcome, const Sealed& sealed) {
  // A full disk can take validation.json with it: say here what could not be written.
  log_ << not_written_lines(sealed.failures);
  log_ << fmt::format("\nbundle: {}{}\n", outcome.bundle_path,
                      !sealed.valid              ? " (INVALID: see validation.json)"
                      : interrupt_.interrupted() ? " (interrupted)"
                      : !docs_.all_runs_ok()     ? " (some runs did not succeed: see manifest.json)"
                                                 : "");
  // Where to look next, with the paths filled in: jbench itself, also when jbench-propose ran this.
  const std::string jbench_exe = beside_self_executable("jbench");
  log_ << fmt::format(
      "next: {0} report {1}          # where the time went, and what tracing cost\n"
      "      {0} validate {1}        # re-check the evidence, anywhere, later\n"
      "      (cd {1} && sha256sum -c SHA256SUMS)\n",
      jbench_exe, outcome.bundle_path);
}

}  // namespace

Result<SessionOutcome> run_session(const Plan& plan, const SessionOptions& options,
                                   std::ostream& log) {
  // An oracle matrix that cannot be read is bad input: refused before anything is written.
  std::optional<OracleMatrix> oracle;
  if (plan.matrix->oracle) {
    const fs::path base = fs::path(plan.matrix->file).parent_path();
    const std::string file = (base / *plan.matrix->oracle).string();
    LoadedOracleMatrix loaded = load_oracle_matrix_file(file);
    if (!loaded.matrix) {
      return Error{"the matrix's oracle: " + format_diagnostics(loaded.diagnostics), 0,
                   ErrorKind::input};
    }
    oracle = std::move(loaded.matrix);
  }
  Result<run::SessionSetup> setup = run::resolve_session(plan, options);
  if (!setup) return setup.error();
  Result<EvidenceBundle> bundle = run::open_bundle(*setup);
  if (!bundle) return bundle.error();
  std::optional<run::Lockstep> lockstep;
  if (!options.lockstep_dir.empty()) {
    auto joined = run::Lockstep::join(options.lockstep_dir, 2);
    if (!joined) return joined.error().within("--lockstep");
    lockstep.emplace(std::move(joined).value());
  }
  Session session(plan, std::move(setup).value(), std::move(bundle).value(), log);
  if (lockstep) session.meet_in(std::move(*lockstep));
  session.stage_documents();
  if (oracle) session.run_oracle(*oracle);
  for (std::size_t i = 0; i < plan.runs.size(); ++i) session.run(i);
  session.write_manifest();
  return session.seal();
}

}  // namespace jbench
