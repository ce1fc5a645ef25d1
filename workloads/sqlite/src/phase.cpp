#include "jbench/sqlite_workload/phase.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "jbench/sqlite_workload/trace.h"

namespace jbench::sqlite_workload {
namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

}  // namespace

std::uint64_t PhaseStats::total_operations() const {
  std::uint64_t n = 0;
  for (auto c : operations) n += c;
  return n;
}

std::uint64_t PhaseStats::writes() const {
  return operations[static_cast<std::size_t>(OpType::insert)] +
         operations[static_cast<std::size_t>(OpType::update)];
}

std::uint64_t PhaseStats::reads() const { return total_operations() - writes(); }

Workload::Workload(WorkerConfig config, DatasetShape shape, QueryCatalog catalog)
    : config_(std::move(config)),
      shape_(shape),
      catalog_(std::move(catalog)),
      stream_(config_, shape_) {}

Workload::Setup Workload::set_up(const WorkerConfig& config) {
  Setup out;
  const std::uint64_t t0 = monotonic_ns();
  Connection conn;
  std::string error;
  int rc;
  {
    const trace::Span span(trace::kConnectionOpenStartup);
    rc = Connection::open(config, conn, error);
  }
  if (rc != SQLITE_OK) {
    out.error = error;
    return out;
  }
  out.open_ns = elapsed_ns(t0, monotonic_ns());
  auto shape = read_dataset_shape(conn.db());
  if (!shape.shape) {
    out.error = fmt::format("{}: {}", config.db, shape.error);
    return out;
  }
  auto catalog = classify_queries(conn.db(), error);
  if (!catalog) {
    out.error = error;
    return out;
  }
  std::optional<FsyncPlant> plant;
  if (config.params.plant_fsync_file) {
    auto opened = FsyncPlant::open(plant_path(config.db, *config.params.plant_fsync_file));
    if (!opened) {
      out.error = opened.error().message;
      return out;
    }
    plant.emplace(std::move(opened).value());
  }
  out.workload.reset(new Workload(config, *shape.shape, std::move(*catalog)));
  out.workload->plant_ = std::move(plant);
  if (config.connection == ConnectionMode::persistent) {
    out.workload->persistent_ = std::move(conn);
  } else {
    {
      const trace::Span span(trace::kConnectionCloseStartup);
      rc = conn.close();
    }
    if (rc != SQLITE_OK) {
      out.workload.reset();
      out.error = fmt::format("closing the probe connection: {}", result_code_name(rc));
      return out;
    }
  }
  out.setup_ns = elapsed_ns(t0, monotonic_ns());
  return out;
}

PhaseStats Workload::run_phase(const PhaseSpec& spec) {
  PhaseStats s;
  const CpuTimes cpu0 = process_cpu_times();
  s.t_start_ns = monotonic_ns();
  const bool timed = spec.kind == PhaseSpec::Kind::duration;
  const std::uint64_t deadline = timed ? s.t_start_ns + spec.amount * 1'000'000 : kNever;
  std::uint64_t remaining = timed ? kNever : spec.amount;
  std::uint32_t consecutive_failures = 0;
  while (remaining > 0 && monotonic_ns() < deadline) {
    const TxnPlan plan = stream_.next();
    // An operation-count phase ends exactly on N: the last transaction may run fewer operations.
    const auto limit =
        static_cast<std::size_t>(std::min<std::uint64_t>(plan.ops.size(), remaining));
    if (const auto counted = run_transaction(plan, limit, deadline, s)) {
      remaining -= timed ? 0 : *counted;
      consecutive_failures = 0;
    } else if (s.aborted) {
      break;
    } else if (++consecutive_failures >= kMaxConsecutiveFailures) {
      s.aborted = fmt::format("{} transactions in a row failed", consecutive_failures);
      break;
    }
  }
  s.t_finished_ns = monotonic_ns();
  const CpuTimes cpu1 = process_cpu_times();
  s.t_end_ns = std::min(deadline, s.t_finished_ns);
  s.cpu = {elapsed_ns(cpu0.user_ns, cpu1.user_ns), elapsed_ns(cpu0.system_ns, cpu1.system_ns)};
  return s;
}

std::optional<std::uint64_t> Workload::run_transaction(const TxnPlan& plan, std::size_t limit,
                                                       std::uint64_t deadline, PhaseStats& s) {
  if (persistent_) return run_attempts(*persistent_, plan, limit, deadline, s);
  // A cold connection per transaction. Its open/close cost is its own measurement (and its own
  // span, beside the transaction's), never inside an operation's latency.
  Connection cold;
  std::string error;
  std::uint64_t t0 = monotonic_ns();
  int rc;
  {
    const trace::Span span(trace::kConnectionOpenSteady);
    rc = Connection::open(config_, cold, error);
  }
  s.connection_open.record(elapsed_ns(t0, monotonic_ns()));
  if (rc != SQLITE_OK) {
    ++s.errors[result_code_name(rc)];
    ++s.transactions_failed;
    return std::nullopt;
  }
  const auto counted = run_attempts(cold, plan, limit, deadline, s);
  t0 = monotonic_ns();
  {
    const trace::Span span(trace::kConnectionCloseSteady);
    rc = cold.close();
  }
  s.connection_close.record(elapsed_ns(t0, monotonic_ns()));
  if (rc != SQLITE_OK) ++s.errors[result_code_name(rc)];
  return counted;
}

std::optional<std::uint64_t> Workload::run_attempts(Connection& conn, const TxnPlan& plan,
                                                    std::size_t limit, std::uint64_t deadline,
                                                    PhaseStats& s) {
  // One span for the transaction, retries included; attempt_transaction's statements nest in it.
  const trace::Span span(trace::transaction_span(plan.writes));
  for (std::uint32_t attempt = 0;; ++attempt) {
    const Attempt a =
        attempt_transaction(conn, catalog_, plan, limit, deadline, plant_ ? &*plant_ : nullptr,
                            {config_.params.plant_delay_ns, config_.params.plant_sleep_ns,
                             config_.params.plant_work_loops, config_.params.plant_allocations});
    if (a.plant) s.plant.add(*a.plant);
    s.plant_sleeps += a.sleeps;
    s.plant_slept_ns += a.slept_ns;
    s.plant_busy_waits += a.busy_waits;
    s.plant_busy_cpu_ns += a.busy_cpu_ns;
    if (!a.plant_error.empty()) {
      // The host refused the plant: every later transaction would measure something else.
      s.aborted = a.plant_error;
      if (a.rollback_code != SQLITE_OK) ++s.errors[result_code_name(a.rollback_code)];
      ++s.transactions_failed;
      return std::nullopt;
    }
    if (a.status == Attempt::Status::committed) {
      std::uint64_t counted = 0;
      account(a, plan.writes, deadline, s, counted);
      return counted;
    }
    ++s.errors[result_code_name(a.code)];
    if (a.rollback_code != SQLITE_OK) ++s.errors[result_code_name(a.rollback_code)];
    if (a.status == Attempt::Status::busy) {
      ++s.busy_waits;
      s.busy_wait_ns += elapsed_ns(a.begin_ns, std::min(a.end_ns, deadline));
    }
    if (a.status == Attempt::Status::failed) {
      ++s.transactions_failed;
      return std::nullopt;
    }
    if (a.end_ns >= deadline) {
      ++s.transactions_abandoned;
      return std::nullopt;
    }
    if (attempt == kMaxRetries) {
      ++s.errors["busy_exhausted"];
      ++s.transactions_failed;
      return std::nullopt;
    }
    ++s.retries;
  }
}

void Workload::account(const Attempt& a, bool writes, std::uint64_t deadline, PhaseStats& s,
                       std::uint64_t& counted) {
  for (const OpRecord& r : a.ops) {
    if (r.end_ns > deadline) {
      ++s.straddled;  // started before the deadline (transaction.h guarantees it), ended after
      continue;
    }
    const auto i = static_cast<std::size_t>(r.type);
    ++s.operations[i];
    s.latency[i].record(r.end_ns - r.start_ns);
    s.rows_returned += r.rows;
    s.vm_steps += r.vm_steps;
    if (r.cache_lookup == SubqueryCache::Lookup::hit) ++s.subquery_cache_hits;
    if (r.cache_lookup == SubqueryCache::Lookup::fill) ++s.subquery_cache_fills;
    if (!s.first_op_start_ns) s.first_op_start_ns = r.start_ns;
    s.last_op_end_ns = r.end_ns;
    ++counted;
  }
  if (a.end_ns > deadline) {
    ++s.transactions_straddled;
    return;
  }
  ++s.transactions;
  s.vm_steps += a.control_vm_steps;
  ++(writes ? s.write_transactions : s.read_transactions);
  s.transaction_latency.record(a.end_ns - a.begin_ns);
}

std::uint64_t Workload::tear_down(std::string& error) {
  if (!persistent_) return 0;
  const std::uint64_t t0 = monotonic_ns();
  int rc;
  {
    const trace::Span span(trace::kConnectionCloseTeardown);
    rc = persistent_->close();
  }
  const std::uint64_t ns = elapsed_ns(t0, monotonic_ns());
  if (rc != SQLITE_OK) error = fmt::format("closing the connection: {}", result_code_name(rc));
  persistent_.reset();
  return ns;
}

}  // namespace jbench::sqlite_workload
