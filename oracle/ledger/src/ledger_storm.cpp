#include "jbench/oracle/ledger_storm.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "jbench/common/clock.h"
#include "jbench/common/random.h"
#include "jbench/oracle/ledger_database.h"
#include "jbench/oracle/ledger_phase.h"
#include "jbench/oracle/ledger_verify.h"
#include "jbench/proc/proc_stat.h"
#include "ledger_progress.h"
#include "worker_registration.h"

namespace jbench::oracle {
namespace {

constexpr int kRegistrationTimeoutMs = 10000;
// After "stop", how long a reader has to report and exit before it is killed.
constexpr int kReaderStopTimeoutMs = 5000;

struct WriterSlot {
  std::optional<RegisteredWorker> worker;  // the live incarnation
  std::size_t incarnation = 0;
  bool finished = false;  // its last incarnation ran every transaction and exited 0
  bool failed = false;    // it exited badly on its own, or could not be registered
  bool released = false;  // its live incarnation was told it may end ("finish")
};

class Storm {
 public:
  Storm(const LedgerConfig& config, std::string work_dir, std::string worker_path,
        std::ostream& log)
      : config_(config),
        dir_(std::move(work_dir)),
        worker_path_(std::move(worker_path)),
        log_(log),
        kill_rng_(combine64(config.seed, fnv1a64("ledger storm kills"))) {}

  Result<LedgerVerdict> run() {
    const std::uint64_t started_ns = monotonic_ns();
    deadline_ns_ = started_ns + std::uint64_t{config_.timeout_ms} * 1000000;
    const std::string db = dir_ + "/ledger.db";
    if (auto s = create_ledger_database(db, config_.layout(), config_.journal); !s) {
      return s.error();
    }
    for (std::size_t r = 0; r < config_.readers; ++r) {
      auto reader = start("reader", r, 0);
      if (!reader) return reader.error();
      readers_.push_back(std::move(*reader));
    }
    writers_.resize(config_.writers);
    for (std::size_t w = 0; w < config_.writers; ++w) {
      auto writer = start("writer", w, 0);
      if (!writer) return writer.error();
      writers_[w].worker = std::move(*writer);
    }
    storm();
    stop_readers();
    for (auto& slot : writers_) {
      if (slot.worker) end(*slot.worker, "killed at the storm's end (timeout)");
    }
    storm_.storm_ms = (monotonic_ns() - started_ns) / 1000000;
    log_ << "ledger storm: " << storm_.kills_done << " kills, " << storm_.incarnations.size()
         << " incarnations, " << storm_.storm_ms << " ms; verifying\n";

    std::vector<std::string> ledgers;
    for (std::size_t w = 0; w < config_.writers; ++w) ledgers.push_back(ledger_path_for(dir_, w));
    auto verified = verify_ledgers(db, ledgers, config_.layout());
    if (!verified) return verified.error().within("verifying the ledger storm");
    return merge(std::move(*verified));
  }

 private:
  std::string stderr_path(const std::string& role, std::size_t index, std::size_t inc) const {
    return dir_ + "/" + role + "-" + std::to_string(index) + "." + std::to_string(inc) + ".stderr";
  }

  Result<RegisteredWorker> start(const std::string& role, std::size_t index, std::size_t inc) {
    proc::SpawnSpec spec;
    spec.executable = worker_path_;
    spec.working_dir = dir_;
    spec.stderr_path = stderr_path(role, index, inc);
    const LedgerLayout layout = config_.layout();
    spec.args = {role,
                 "--db",
                 dir_ + "/ledger.db",
                 role == "writer" ? "--writer" : "--index",
                 std::to_string(index),
                 "--variant",
                 std::string(to_string(config_.variant)),
                 "--journal",
                 std::string(to_string(config_.journal)),
                 "--accounts",
                 std::to_string(layout.accounts),
                 "--initial-balance",
                 std::to_string(layout.initial_balance),
                 "--deadline-ms",
                 std::to_string(config_.timeout_ms)};
    if (role == "writer") {
      for (const std::string& arg :
           {std::string("--ledger"), ledger_path_for(dir_, index), std::string("--incarnation"),
            std::to_string(inc), std::string("--transactions"),
            std::to_string(config_.transactions_per_writer), std::string("--seed"),
            std::to_string(config_.seed), std::string("--keys-per-writer"),
            std::to_string(layout.keys_per_writer), std::string("--broken"),
            std::string(to_string(config_.broken)), std::string("--hold-end"),
            std::string("yes")}) {
        spec.args.push_back(arg);
      }
    }
    if (role == "writer") reset_phase(index);
    LedgerIncarnation record;
    record.role = role;
    record.index = index;
    record.incarnation = inc;
    auto worker = spawn_registered(spec, std::move(record), kRegistrationTimeoutMs);
    if (worker && !runtime_ids_.insert(worker->record.runtime_id).second) {
      return Error{role + " " + std::to_string(index) + " reuses a runtime id"};
    }
    return worker;
  }

  // A new incarnation starts as "starting", whatever its predecessor's last phase was.
  void reset_phase(std::size_t writer) const {
    const std::string path = phase_path_for(ledger_path_for(dir_, writer));
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    const auto byte = static_cast<std::uint8_t>(WriterPhase::starting);
    (void)!::write(fd, &byte, 1);
    ::close(fd);
  }

  // Records how an incarnation ended, killing it first if it still runs.
  void end(RegisteredWorker& worker, const std::string& how) {
    const auto status =
        worker.process->reaped() ? *worker.process->status() : worker.process->kill_and_reap();
    worker.record.ended = how.empty() ? status.describe() : how;
    storm_.incarnations.push_back(worker.record);
  }

  std::uint64_t next_kill_gap_ns() {
    return kill_rng_.below(std::uint64_t{config_.max_kill_gap_ms} * 1000000 + 1);
  }

  // A writer whose incarnation exited on its own: finished (exit 0 with its report), or failed.
  void reap_exited(std::size_t w) {
    WriterSlot& slot = writers_[w];
    auto& worker = *slot.worker;
    collect_lines(worker, 0);
    if (!worker.process->try_reap()) return;
    collect_lines(worker, 0);
    const auto& status = *worker.process->status();
    if (!status.signaled && status.code == 0 && !worker.lines.empty()) {
      const auto report = nlohmann::json::parse(worker.lines.back(), nullptr, false);
      if (report.is_object()) storm_.busy_retries += report.value("busy_retries", 0u);
      slot.finished = true;
      ++storm_.writers_finished;
    } else {
      slot.failed = true;
      ++storm_.worker_failures;
      storm_.add_finding("writer " + std::to_string(w) + " incarnation " +
                         std::to_string(slot.incarnation) + " ended by itself with " +
                         status.describe() + ": " +
                         first_stderr_line(stderr_path("writer", w, slot.incarnation)));
    }
    end(worker, "");
    slot.worker.reset();
  }

  void kill_one() {
    std::vector<std::size_t> live;
    for (std::size_t w = 0; w < writers_.size(); ++w) {
      if (writers_[w].worker) live.push_back(w);
    }
    if (live.empty()) return;
    const std::size_t w = live[kill_rng_.below(live.size())];
    WriterSlot& slot = writers_[w];
    slot.worker->process->kill_and_reap();
    const auto phase = read_writer_phase(phase_path_for(ledger_path_for(dir_, w)));
    ++storm_.kill_points[phase ? std::string(to_string(*phase)) : "unknown"];
    end(*slot.worker, "killed by the storm");
    slot.worker.reset();
    ++storm_.kills_done;
    ++slot.incarnation;
    auto next = start("writer", w, slot.incarnation);
    if (!next) {
      slot.failed = true;
      ++storm_.worker_failures;
      storm_.add_finding(next.error().message);
      return;
    }
    slot.worker = std::move(*next);
    slot.released = false;
  }

  // The kill schedule: kill j waits until the ledgers have grown past a seeded threshold (so
  // the kills spread over the whole run however fast this host commits), then a seeded random
  // delay more (so it lands at a random point of whatever a writer is doing: mid-transaction,
  // in COMMIT, between COMMIT and the ledger append, or starting up).
  std::vector<std::uint64_t> kill_thresholds() {
    // Each transaction appends about one line; start lines come on top. Keep the last quarter
    // of the run free of thresholds, so the kills are done before the writers are.
    const std::uint64_t span =
        std::max<std::uint64_t>(1, config_.writers * config_.transactions_per_writer * 3 / 4);
    std::vector<std::uint64_t> thresholds;
    for (std::size_t k = 0; k < config_.kills; ++k) thresholds.push_back(kill_rng_.below(span));
    std::sort(thresholds.begin(), thresholds.end());
    return thresholds;
  }

  void storm() {
    std::vector<std::string> paths;
    for (std::size_t w = 0; w < config_.writers; ++w) paths.push_back(ledger_path_for(dir_, w));
    LedgerProgress progress(std::move(paths));
    const std::vector<std::uint64_t> thresholds = kill_thresholds();
    bool kill_armed = false;
    std::uint64_t kill_at_ns = 0;  // the armed kill's moment
    for (;;) {
      bool any_live = false;
      for (std::size_t w = 0; w < writers_.size(); ++w) {
        if (writers_[w].worker) reap_exited(w);
        any_live = any_live || writers_[w].worker.has_value();
      }
      if (!any_live) return;
      const std::uint64_t now = monotonic_ns();
      if (now > deadline_ns_) {
        storm_.timed_out = true;
        storm_.add_finding("the storm did not end within " + std::to_string(config_.timeout_ms) +
                           " ms");
        return;
      }
      const std::size_t k = storm_.kills_done;
      if (k >= thresholds.size()) release_writers();
      if (!kill_armed && k < thresholds.size()) {
        const std::uint64_t lines = progress.lines();
        if (lines >= thresholds[k]) {
          // Behind schedule (the next threshold is passed too): a short delay, so the kills
          // keep up with writers that commit faster than a kill and a restart take.
          const bool behind = k + 1 < thresholds.size() && lines >= thresholds[k + 1];
          kill_armed = true;
          kill_at_ns = now + (behind ? kill_rng_.below(1000000) : next_kill_gap_ns());
        }
      }
      if (kill_armed && now >= kill_at_ns) {
        kill_one();
        kill_armed = false;
      }
      timespec tick{0, 500000};
      ::nanosleep(&tick, nullptr);
    }
  }

  // Once every kill is done, the writers may end: each waits for "finish" after its last
  // transaction (--hold-end), so no host is fast enough for its writers to outrun the storm.
  void release_writers() {
    for (auto& slot : writers_) {
      if (!slot.worker || slot.released) continue;
      slot.released = slot.worker->process->write_line("finish", 1000).ok();
    }
  }

  void stop_readers() {
    for (auto& reader : readers_) {
      (void)reader.process->write_line("stop", 1000);
    }
    const std::uint64_t until = monotonic_ns() + std::uint64_t{kReaderStopTimeoutMs} * 1000000;
    for (std::size_t r = 0; r < readers_.size(); ++r) {
      auto& reader = readers_[r];
      while (!reader.eof && monotonic_ns() < until) collect_lines(reader, 10);
      const auto report = reader.lines.empty()
                              ? nlohmann::json()
                              : nlohmann::json::parse(reader.lines.back(), nullptr, false);
      while (!reader.process->try_reap() && monotonic_ns() < until) {
        timespec tick{0, 1000000};
        ::nanosleep(&tick, nullptr);
      }
      const bool clean = reader.process->reaped() && !reader.process->status()->signaled &&
                         reader.process->status()->code == 0;
      if (!report.is_object() || !clean) {
        ++storm_.worker_failures;
        storm_.add_finding("reader " + std::to_string(r) +
                           " gave no report or did not exit "
                           "cleanly: " +
                           first_stderr_line(stderr_path("reader", r, 0)));
      }
      if (report.is_object()) {
        storm_.reader_snapshots += report.value("snapshots", 0u);
        storm_.invariant_violations += report.value("violations", 0u);
        storm_.busy_retries += report.value("busy_retries", 0u);
        const std::string first = report.value("first_violation", "");
        if (!first.empty()) storm_.add_finding("reader " + std::to_string(r) + ": " + first);
      }
      end(reader, reader.process->reaped() ? "" : "killed: did not stop");
    }
  }

  // The verdict: the verifier's counts with the storm's record and findings first.
  LedgerVerdict merge(LedgerVerdict v) const {
    v.journal = config_.journal;
    v.broken = config_.broken;
    v.seed = config_.seed;
    v.storm_ran = true;
    v.kills_requested = config_.kills;
    v.kills_done = storm_.kills_done;
    v.kill_points = storm_.kill_points;
    v.writers = config_.writers;
    v.writers_finished = storm_.writers_finished;
    v.reader_snapshots = storm_.reader_snapshots;
    v.invariant_violations += storm_.invariant_violations;
    v.worker_failures = storm_.worker_failures;
    v.busy_retries = storm_.busy_retries;
    v.timed_out = storm_.timed_out;
    v.storm_ms = storm_.storm_ms;
    v.incarnations = storm_.incarnations;
    v.boot_id = proc::read_boot_id();
    std::vector<std::string> findings = storm_.findings;
    findings.insert(findings.end(), v.findings.begin(), v.findings.end());
    v.findings_dropped += storm_.findings_dropped;
    if (findings.size() > LedgerVerdict::kMaxFindings) {
      v.findings_dropped += findings.size() - LedgerVerdict::kMaxFindings;
      findings.resize(LedgerVerdict::kMaxFindings);
    }
    v.findings = std::move(findings);
    return v;
  }

  const LedgerConfig& config_;
  std::string dir_;
  std::string worker_path_;
  std::ostream& log_;
  SplitMix64 kill_rng_;
  std::uint64_t deadline_ns_ = 0;
  std::vector<RegisteredWorker> readers_;
  std::vector<WriterSlot> writers_;
  std::set<std::string> runtime_ids_;
  LedgerVerdict storm_;  // the storm's own record, merged into the verifier's verdict
};

}  // namespace

std::string ledger_path_for(const std::string& work_dir, std::size_t writer) {
  return work_dir + "/writer-" + std::to_string(writer) + ".ledger";
}

Result<LedgerVerdict> run_ledger_storm(const LedgerConfig& config, const std::string& work_dir,
                                       const std::string& worker_path, std::ostream& log) {
  if (config.writers == 0 || config.transactions_per_writer == 0 || config.accounts == 0 ||
      config.keys_per_writer == 0) {
    return Error{"a ledger storm needs at least one writer, transaction, account and key", 0,
                 ErrorKind::input};
  }
  Storm storm(config, work_dir, worker_path, log);
  return storm.run();
}

}  // namespace jbench::oracle
