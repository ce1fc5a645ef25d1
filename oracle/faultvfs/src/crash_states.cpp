#include "jbench/oracle/crash_states.h"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "jbench/common/random.h"
#include "sqlite_files.h"
#include "transaction_set.h"

namespace jbench::oracle {

namespace {

namespace fs = std::filesystem;
using fault_detail::TransactionSet;

constexpr std::size_t kSector = 512;

// States are compared by a hash of their dump: a long run has a thousand prefix states.
std::string fingerprint(const std::string& content) {
  return fmt::format("{:016x}", fnv1a64(content));
}

// What each file (by name) holds on disk, and the writes and truncations since its last sync.
struct Disk {
  std::map<std::string, std::optional<std::string>> durable;  // nullopt: the file is absent
  std::vector<const FileEvent*> unsynced;
  std::uint64_t version = 0;  // bumps whenever `durable` changes
};

std::string name_of(const FileEvent& e) { return fs::path(e.path).filename().string(); }

// `e` on `content`; a write kept only in its first `keep` bytes when torn.
void apply(std::string& content, const FileEvent& e,
           std::size_t keep = std::numeric_limits<std::size_t>::max()) {
  if (e.kind == FileEvent::Kind::truncate) {
    content.resize(static_cast<std::size_t>(e.offset), '\0');
    return;
  }
  const std::size_t n = std::min(keep, e.data.size());
  const auto at = static_cast<std::size_t>(e.offset);
  if (content.size() < at + n) content.resize(at + n, '\0');
  content.replace(at, n, e.data, 0, n);
}

// The recorded event changes the disk: creation and removal at once, writes when synced.
void advance(Disk& d, const FileEvent& e) {
  const std::string name = name_of(e);
  switch (e.kind) {
    case FileEvent::Kind::open:
      if (!d.durable[name]) {
        d.durable[name] = std::string();
        ++d.version;
      }
      break;
    case FileEvent::Kind::write:
    case FileEvent::Kind::truncate:
      d.unsynced.push_back(&e);
      break;
    case FileEvent::Kind::sync:
      std::erase_if(d.unsynced, [&](const FileEvent* w) {
        if (name_of(*w) != name) return false;
        apply(d.durable[name].value(), *w);
        return true;
      });
      ++d.version;
      break;
    case FileEvent::Kind::remove:
      d.durable[name] = std::nullopt;
      std::erase_if(d.unsynced, [&](const FileEvent* w) { return name_of(*w) == name; });
      ++d.version;
      break;
    default:
      break;
  }
}

class Explorer {
 public:
  Explorer(const CrashStateConfig& c, std::string state_db, std::vector<std::string> prefix,
           CrashStateVerdict& v)
      : config_(c),
        state_db_(std::move(state_db)),
        prefix_(std::move(prefix)),
        verdict_(v),
        rng_(mix64(c.seed ^ 0x6372617368ULL)) {}

  // `base`: the database file as the run found it. An error when a state could not be written
  // to the scratch directory: that is the host's failure, never SQLite's.
  Status explore(const std::vector<FileEvent>& events, const std::string& base) {
    Disk disk;
    disk.durable[fs::path(state_db_).filename().string()] = base;
    for (std::size_t i = 0; i < events.size() && !host_error_; ++i) {
      const FileEvent& e = events[i];
      if (e.kind == FileEvent::Kind::sync) {
        ++verdict_.syncs;
        crash_point(disk, i + 1);  // just before the sync: its writes may or may not be there
      }
      advance(disk, e);
      if (e.kind == FileEvent::Kind::commit_begin) in_flight_ = true;
      if (e.kind == FileEvent::Kind::commit_done) {
        in_flight_ = false;
        ++acknowledged_;
        crash_point(disk, i + 2);
      }
    }
    if (!host_error_) crash_point(disk, events.size() + 1);
    if (host_error_) return Error{*host_error_, 0, ErrorKind::io};
    return {};
  }

 private:
  void crash_point(const Disk& d, std::size_t event) {
    const bool fresh = d.version != seen_version_ || acknowledged_ != seen_acknowledged_;
    if (!fresh && d.unsynced.empty()) return;
    ++verdict_.crash_points;
    if (fresh) check(d.durable, event, "synced only");
    seen_version_ = d.version;
    seen_acknowledged_ = acknowledged_;
    for (std::size_t r = 0; r < config_.reorderings && !d.unsynced.empty(); ++r) {
      variant(d, event, r == 0);
    }
  }

  // The synced state plus a seeded subset of the unsynced writes, one of them torn if asked.
  void variant(const Disk& d, std::size_t event, bool tear) {
    auto files = d.durable;
    std::size_t kept = 0;
    std::string torn;
    for (const FileEvent* w : d.unsynced) {
      if (rng_.below(2) == 0) continue;
      auto& content = files[name_of(*w)];
      if (!content) continue;  // removed since: nothing of it reaches the disk
      std::size_t keep = std::numeric_limits<std::size_t>::max();
      if (tear && torn.empty() && w->data.size() > kSector) {
        const std::size_t cuts = (w->data.size() - 1) / kSector;  // sector ends inside it
        keep = kSector * (1 + rng_.below(cuts));
        torn = fmt::format(", torn after {} bytes of a {}-byte write to {}", keep, w->data.size(),
                           name_of(*w));
      }
      apply(*content, *w, keep);
      ++kept;
    }
    check(
        files, event,
        fmt::format("{} of {} unsynced writes reached the disk{}", kept, d.unsynced.size(), torn));
  }

  void check(const std::map<std::string, std::optional<std::string>>& files, std::size_t event,
             const std::string& variant) {
    if (host_error_) return;
    fault_detail::remove_database_files(state_db_);
    const fs::path dir = fs::path(state_db_).parent_path();
    for (const auto& [name, content] : files) {
      if (!content) continue;
      std::ofstream out(dir / name, std::ios::binary);
      if (!(out << *content) || !out.flush()) {
        host_error_ = "cannot write the crash state '" + (dir / name).string() + "'";
        return;
      }
    }
    ++verdict_.states_explored;
    RunObservation seen = fault_detail::observe(state_db_);
    seen.acknowledged = acknowledged_;
    seen.commit_in_doubt = in_flight_;
    if (seen.reopened && seen.integrity == "ok") seen.content = fingerprint(seen.content);
    const StateCheck c = check_state(prefix_, seen);
    if (!c.finding) return;
    if (verdict_.findings.size() >= config_.max_findings) {
      ++verdict_.findings_left_off;
      return;
    }
    verdict_.findings.push_back(
        {*c.finding, event, acknowledged_, c.transaction, variant, c.detail});
  }

  const CrashStateConfig& config_;
  std::string state_db_;
  std::vector<std::string> prefix_;
  CrashStateVerdict& verdict_;
  SplitMix64 rng_;
  std::size_t acknowledged_ = 0;
  bool in_flight_ = false;
  std::optional<std::string> host_error_;  // a state that could not be written stops it all
  std::uint64_t seen_version_ = std::numeric_limits<std::uint64_t>::max();
  std::size_t seen_acknowledged_ = std::numeric_limits<std::size_t>::max();
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The fingerprints of the states after each prefix of the set: a plain run on a copy.
Result<std::vector<std::string>> prefix_states(const std::string& start, const std::string& ref,
                                               const CrashStateConfig& c,
                                               const TransactionSet& set) {
  if (Status s = fault_detail::copy_file(start, ref); !s) return s.error();
  RunObservation before = fault_detail::observe(ref);
  if (!before.reopened || before.integrity != "ok") {
    return Error{"the starting database '" + start + "' does not read back"};
  }
  std::vector<std::string> dumps = {before.content};
  const auto run = fault_detail::run_transaction_set(ref, nullptr, c.synchronous, set, &dumps);
  if (run.acknowledged != set.transactions.size()) {
    return Error{"the reference run stopped at transaction " +
                 std::to_string(run.acknowledged + 1) + ": " + run.first_error};
  }
  std::vector<std::string> prints;
  for (const std::string& d : dumps) prints.push_back(fingerprint(d));
  return prints;
}

// The run through the recording shim, from a copy of the starting database.
Result<std::vector<FileEvent>> recorded_run(const std::string& start, const std::string& db,
                                            const CrashStateConfig& c, const TransactionSet& set,
                                            std::size_t& committed) {
  if (Status s = fault_detail::copy_file(start, db); !s) return s.error();
  FaultVfsOptions options;
  options.real_fsync = false;
  options.record_events = true;
  auto vfs = FaultVfs::create(options);
  if (!vfs) return vfs.error();
  const auto run = fault_detail::run_transaction_set(db, (*vfs)->name().c_str(), c.synchronous, set,
                                                     nullptr, vfs->get());
  committed = run.acknowledged;
  if (run.acknowledged != set.transactions.size()) {
    return Error{"the recorded run stopped at transaction " + std::to_string(run.acknowledged + 1) +
                 ": " + run.first_error};
  }
  return (*vfs)->events();
}

// The starting database, the reference prefixes, the recorded run and its crash states, in `dir`.
Result<CrashStateVerdict> explore_in(const CrashStateConfig& c, const fs::path& dir) {
  const TransactionSet set = fault_detail::make_ledger_set(c.seed, c.transactions);
  const std::string start = (dir / "start.db").string();
  const bool wal = c.journal_mode == FaultJournalMode::wal;
  if (Status s = fault_detail::create_start_database(start, wal ? "WAL" : "DELETE", set); !s) {
    return s.error();
  }
  auto prefix = prefix_states(start, (dir / "ref.db").string(), c, set);
  if (!prefix) return prefix.error();
  CrashStateVerdict v;
  v.config = c;
  auto events = recorded_run(start, (dir / "run.db").string(), c, set, v.transactions_committed);
  if (!events) return events.error();
  v.events = events->size();
  Explorer explorer(c, (dir / "state" / "run.db").string(), std::move(*prefix), v);
  if (Status s = explorer.explore(*events, read_file(start)); !s) return s.error();
  return v;
}

}  // namespace

Result<CrashStateVerdict> explore_crash_states(const CrashStateConfig& config,
                                               const std::string& work_dir) {
  const auto started = std::chrono::steady_clock::now();
  auto synchronous = fault_detail::checked_synchronous(config.synchronous);
  if (!synchronous) {
    return Error{"synchronous '" + config.synchronous + "' is not OFF, NORMAL, FULL or EXTRA", 0,
                 ErrorKind::input};
  }
  CrashStateConfig c = config;
  c.synchronous = *synchronous;
  const fs::path dir = fs::path(work_dir) / ("crash-" + std::string(to_string(c.journal_mode)));
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir / "state", ec);
  if (ec) return Error{"cannot create '" + dir.string() + "': " + ec.message(), ec.value()};
  auto v = explore_in(c, dir);
  fs::remove_all(dir, ec);  // the databases are scratch: the verdict says what they showed
  if (v) {
    v.value().elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
  }
  return v;
}

nlohmann::json CrashStateVerdict::to_json() const {
  nlohmann::json found = nlohmann::json::array();
  for (const CrashFinding& f : findings) {
    found.push_back({{"what", std::string(to_string(f.what))},
                     {"event", f.event},
                     {"acknowledged", f.acknowledged},
                     {"transaction", f.transaction},
                     {"variant", f.variant},
                     {"detail", f.detail}});
  }
  return {{"passed", passed()},
          {"config",
           {{"journal_mode", std::string(to_string(config.journal_mode))},
            {"synchronous", config.synchronous},
            {"transactions", config.transactions},
            {"seed", std::to_string(config.seed)},
            {"reorderings", config.reorderings}}},
          {"events", events},
          {"syncs", syncs},
          {"crash_points", crash_points},
          {"states_explored", states_explored},
          {"transactions_committed", transactions_committed},
          {"findings", std::move(found)},
          {"findings_left_off", findings_left_off},
          {"elapsed_ms", elapsed_ms}};
}

}  // namespace jbench::oracle
