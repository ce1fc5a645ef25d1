#include <nlohmann/json.hpp>

#include "jbench/oracle/fault_loop.h"

namespace jbench::oracle {

std::string_view to_string(FaultJournalMode mode) {
  return mode == FaultJournalMode::wal ? "wal" : "rollback";
}

std::optional<FaultJournalMode> fault_journal_mode_from_string(std::string_view name) {
  if (name == "wal") return FaultJournalMode::wal;
  if (name == "rollback") return FaultJournalMode::rollback;
  return std::nullopt;
}

namespace {

bool complete(const FaultModeResult& mode, const FaultLoopConfig& config) {
  for (FaultKind kind : config.kinds) {
    if (mode.visited_of(kind) != mode.faultable_points) return false;
  }
  return true;
}

nlohmann::json finding_json(const FaultFinding& f) {
  return {{"kind", to_string(f.kind)},      {"point", f.point},
          {"op", to_string(f.op)},          {"finding", to_string(f.what)},
          {"transaction", f.transaction},   {"transaction_name", f.transaction_name},
          {"acknowledged", f.acknowledged}, {"detail", f.detail}};
}

}  // namespace

bool FaultLoopVerdict::passed() const {
  if (modes.empty()) return false;  // nothing checked is never a pass
  for (const FaultModeResult& mode : modes) {
    if (!mode.findings.empty() || !complete(mode, config)) return false;
  }
  return true;
}

nlohmann::json FaultLoopVerdict::to_json() const {
  nlohmann::json cfg;
  for (FaultJournalMode m : config.journal_modes) cfg["journal_modes"].push_back(to_string(m));
  cfg["synchronous"] = config.synchronous;
  cfg["seed"] = std::to_string(config.seed);  // 64-bit: a string, so no reader rounds it
  for (FaultKind k : config.kinds) cfg["kinds"].push_back(to_string(k));
  for (IoOp op : config.ops) cfg["ops"].push_back(to_string(op));
  cfg["max_points"] = config.max_points;
  cfg["unsynced_sector_survival"] = config.unsynced_sector_survival;

  nlohmann::json out_modes = nlohmann::json::array();
  for (const FaultModeResult& mode : modes) {
    nlohmann::json points, visited, findings = nlohmann::json::array();
    for (IoOp op : kAllIoOps) points[std::string(to_string(op))] = mode.fault_free_counts.of(op);
    for (FaultKind kind : config.kinds)
      visited[std::string(to_string(kind))] = mode.visited_of(kind);
    for (const FaultFinding& f : mode.findings) findings.push_back(finding_json(f));
    out_modes.push_back({{"journal_mode", to_string(mode.mode)},
                         {"transactions", mode.transactions},
                         {"io_points", points},
                         {"faultable_points", mode.faultable_points},
                         {"visited", visited},
                         {"complete", complete(mode, config)},
                         {"findings", findings},
                         {"elapsed_ms", mode.elapsed_ms}});
  }
  return {{"passed", passed()}, {"config", cfg}, {"modes", out_modes}};
}

}  // namespace jbench::oracle
