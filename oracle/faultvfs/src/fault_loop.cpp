// The loop of fault_loop.h: per journal mode, a reference run without the shim gives the state
// after each prefix of the set; a fault-free run through the shim gives the I/O points; then one
// run per (kind, point), each on a fresh copy of the starting database, checked by check_state.
#include "jbench/oracle/fault_loop.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>

#include "jbench/common/random.h"
#include "sqlite_files.h"
#include "transaction_set.h"

namespace jbench::oracle {

namespace {

using fault_detail::SetRun;
using fault_detail::TransactionSet;

struct ModeFiles {
  std::string start, reference, run;
};

// Everything one mode's runs share.
struct ModeContext {
  const FaultLoopConfig& config;
  const std::string& synchronous;
  const TransactionSet& set;
  ModeFiles files;
  std::vector<std::string> prefix_states;
  std::vector<IoOp> fault_free_trace;
};

Status fresh_copy(const ModeFiles& files) {
  fault_detail::remove_database_files(files.run);
  return fault_detail::copy_file(files.start, files.run);
}

Result<std::vector<std::string>> reference_states(const ModeContext& ctx) {
  fault_detail::remove_database_files(ctx.files.reference);
  if (Status s = fault_detail::copy_file(ctx.files.start, ctx.files.reference); !s) {
    return s.error();
  }
  RunObservation start = fault_detail::observe(ctx.files.reference);
  if (!start.reopened) return Error{"reading the starting database: " + start.reopen_error};
  std::vector<std::string> states = {start.content};
  SetRun run = fault_detail::run_transaction_set(ctx.files.reference, nullptr, ctx.synchronous,
                                                 ctx.set, &states);
  if (run.first_error_code != 0) {
    return Error{"the transaction set fails without faults: " + run.first_error};
  }
  for (std::size_t i = 0; i < states.size(); ++i) {
    for (std::size_t j = i + 1; j < states.size(); ++j) {
      if (states[i] == states[j]) {
        return Error{"transactions " + std::to_string(i + 1) + ".." + std::to_string(j) +
                     " leave the table as it was, so a lost one could not be told apart"};
      }
    }
  }
  return states;
}

// Runs the set through a fresh shim; a clean end (no power loss) writes unsynced data back.
struct ShimRun {
  SetRun set_run;
  IoCounts counts;
  std::vector<IoOp> trace;
  bool fired = false;
};

Result<ShimRun> run_through_shim(const ModeContext& ctx, const std::optional<FaultSpec>& fault) {
  if (Status s = fresh_copy(ctx.files); !s) return s.error();
  // No real fsync: the power loss here is the shim's own, and the page cache survives it.
  FaultVfsOptions options{.real_fsync = false};
  if (fault && fault->kind == FaultKind::power_loss) {
    options.unsynced_sector_survival = ctx.config.unsynced_sector_survival;
    options.survival_seed = combine64(ctx.config.seed, fault->nth);
  }
  auto vfs = FaultVfs::create(options);
  if (!vfs) return vfs.error();
  if (fault) (*vfs)->arm(*fault);
  ShimRun out;
  out.set_run = fault_detail::run_transaction_set(ctx.files.run, (*vfs)->name().c_str(),
                                                  ctx.synchronous, ctx.set);
  if (!(*vfs)->powered_off()) {
    if (Status s = (*vfs)->write_back_unsynced(); !s) return s.error();
  }
  out.counts = (*vfs)->counts();
  out.trace = (*vfs)->trace();
  out.fired = (*vfs)->fault_fired();
  return out;
}

FaultFinding finding_at(const ModeContext& ctx, FaultKind kind, std::uint64_t point,
                        FaultFindingKind what, std::size_t transaction, std::size_t acknowledged,
                        std::string detail) {
  FaultFinding f;
  f.kind = kind;
  f.point = point;
  f.op = ctx.fault_free_trace[point - 1];
  f.what = what;
  f.transaction = transaction;
  if (transaction >= 1 && transaction <= ctx.set.transactions.size()) {
    f.transaction_name = ctx.set.transactions[transaction - 1].name;
  }
  f.acknowledged = acknowledged;
  f.detail = std::move(detail);
  return f;
}

// One faulted run; returns whether the fault fired, and adds what it found to `findings`.
Result<bool> run_point(const ModeContext& ctx, FaultKind kind, std::uint64_t point,
                       std::vector<FaultFinding>& findings) {
  auto run = run_through_shim(ctx, FaultSpec{kind, point, std::nullopt});
  if (!run) return run.error();
  const SetRun& set_run = run->set_run;
  if (!run->fired) {
    findings.push_back(finding_at(
        ctx, kind, point, FaultFindingKind::point_not_reached, 0, set_run.acknowledged,
        "the run made " + std::to_string(run->trace.size()) + " I/O points, the fault-free run " +
            std::to_string(ctx.fault_free_trace.size())));
    return false;
  }
  const auto before = static_cast<std::ptrdiff_t>(point - 1);
  if (!std::equal(ctx.fault_free_trace.begin(), ctx.fault_free_trace.begin() + before,
                  run->trace.begin())) {
    findings.push_back(finding_at(ctx, kind, point, FaultFindingKind::diverged, 0,
                                  set_run.acknowledged,
                                  "the I/O before the point differs from the fault-free run's"));
  }
  RunObservation seen = fault_detail::observe(ctx.files.run);
  seen.acknowledged = set_run.acknowledged;
  seen.commit_in_doubt = set_run.commit_in_doubt;
  StateCheck check = check_state(ctx.prefix_states, seen);
  if (check.finding) {
    std::string detail = check.detail;
    if (set_run.first_error_code != 0) detail += "; the run stopped at " + set_run.first_error;
    findings.push_back(finding_at(ctx, kind, point, *check.finding, check.transaction,
                                  set_run.acknowledged, std::move(detail)));
  }
  return true;
}

Result<FaultModeResult> run_mode(const FaultLoopConfig& config, const std::string& synchronous,
                                 const TransactionSet& set, FaultJournalMode mode,
                                 const std::filesystem::path& dir) {
  const auto started = std::chrono::steady_clock::now();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return Error{"cannot create '" + dir.string() + "': " + ec.message(), ec.value(),
                 ErrorKind::host};
  }
  ModeContext ctx{
      config,
      synchronous,
      set,
      {(dir / "start.db").string(), (dir / "reference.db").string(), (dir / "run.db").string()},
      {},
      {}};
  const std::string journal = mode == FaultJournalMode::wal ? "WAL" : "DELETE";
  if (Status s = fault_detail::create_start_database(ctx.files.start, journal, set); !s) {
    return s.error();
  }
  auto states = reference_states(ctx);
  if (!states) return states.error();
  ctx.prefix_states = std::move(*states);

  auto fault_free = run_through_shim(ctx, std::nullopt);
  if (!fault_free) return fault_free.error();
  RunObservation seen = fault_detail::observe(ctx.files.run);
  seen.acknowledged = fault_free->set_run.acknowledged;
  if (fault_free->set_run.first_error_code != 0 || seen.content != ctx.prefix_states.back() ||
      check_state(ctx.prefix_states, seen).finding) {
    return Error{"the fault-free run through the shim does not end in the expected state" +
                 (fault_free->set_run.first_error.empty()
                      ? std::string()
                      : ": " + fault_free->set_run.first_error)};
  }
  ctx.fault_free_trace = fault_free->trace;

  FaultModeResult result;
  result.mode = mode;
  result.transactions = set.transactions.size();
  result.fault_free_counts = fault_free->counts;
  std::vector<std::uint64_t> points;
  for (std::size_t i = 0; i < ctx.fault_free_trace.size(); ++i) {
    if (std::find(config.ops.begin(), config.ops.end(), ctx.fault_free_trace[i]) !=
        config.ops.end()) {
      points.push_back(i + 1);
    }
  }
  result.faultable_points = points.size();
  if (points.size() > config.max_points) {
    return Error{std::string(to_string(mode)) + " mode has " + std::to_string(points.size()) +
                     " faultable I/O points, above max_points " + std::to_string(config.max_points),
                 0, ErrorKind::input};
  }
  for (FaultKind kind : config.kinds) {
    for (std::uint64_t point : points) {
      auto fired = run_point(ctx, kind, point, result.findings);
      if (!fired) return fired.error().within("at point " + std::to_string(point));
      if (*fired) ++result.visited[static_cast<std::size_t>(kind)];
    }
  }
  result.elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace

Result<FaultLoopVerdict> run_fault_loop(const FaultLoopConfig& config,
                                        const std::string& work_dir) {
  auto synchronous = fault_detail::checked_synchronous(config.synchronous);
  if (!synchronous) {
    return Error{"synchronous '" + config.synchronous + "' is not OFF, NORMAL, FULL or EXTRA", 0,
                 ErrorKind::input};
  }
  if (!(config.unsynced_sector_survival >= 0 && config.unsynced_sector_survival <= 1)) {
    return Error{"unsynced_sector_survival must be in [0, 1]", 0, ErrorKind::input};
  }
  if (config.journal_modes.empty() || config.kinds.empty() || config.ops.empty()) {
    return Error{"the fault loop needs at least one journal mode, fault kind and op", 0,
                 ErrorKind::input};
  }
  const TransactionSet set = fault_detail::make_transaction_set(config.seed);
  FaultLoopVerdict verdict;
  verdict.config = config;
  for (FaultJournalMode mode : config.journal_modes) {
    auto result = run_mode(config, *synchronous, set, mode,
                           std::filesystem::path(work_dir) / std::string(to_string(mode)));
    if (!result) return result.error().within(std::string(to_string(mode)) + " mode");
    verdict.modes.push_back(std::move(*result));
  }
  return verdict;
}

}  // namespace jbench::oracle
