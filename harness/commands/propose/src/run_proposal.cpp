// run_proposal: the oracle gate, the interleaved sessions, the comparison and the verdict, left
// as one evidence bundle (docs/proposal.md, "The evidence bundle").
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "evidence_text.h"
#include "jbench/bundle/sha256sums.h"
#include "jbench/common/clock.h"
#include "jbench/compare/compare.h"
#include "jbench/oracle_pass/oracle_bundle.h"
#include "jbench/oracle_pass/oracle_pass.h"
#include "jbench/proc/interrupt.h"
#include "jbench/proc/run_tool.h"
#include "jbench/proposal/session_order.h"
#include "jbench/propose/propose.h"
#include "jbench/run/session.h"
#include "jbench/seal/evidence_bundle.h"

namespace jbench::propose {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using proposal::Decision;
using proposal::Side;
using proposal::Verdict;

// The gate command's program by content, as the sessions name their workers: a gate that passed
// names exactly what ran. Null without a gate command, or a program that cannot be read.
Json gate_sha256(const ResolvedSide& r) {
  if (r.gate_command.empty()) return nullptr;
  auto digest = file_sha256(r.gate_command.front());
  return digest ? Json(*digest) : Json(nullptr);
}

Json side_json(const ProposalSide& s, const ResolvedSide& r) {
  Json params = Json::object();
  for (const auto& p : s.params) params[p.key] = p.value;
  const auto or_null = [](bool present, Json value) { return present ? value : Json(nullptr); };
  return {{"params", params},
          {"worker_dir", or_null(!r.worker_dir.empty(), r.worker_dir)},
          {"command", or_null(!s.command.empty(), r.plan.matrix->workload.command)},
          {"oracle", or_null(r.oracle.has_value(), s.oracle)},
          {"oracle_sha256", or_null(r.oracle.has_value(), r.oracle ? r.oracle->sha256 : "")},
          {"gate_command", or_null(!r.gate_command.empty(), r.gate_command)},
          {"gate_sha256", gate_sha256(r)}};
}

// What a failed oracle record failed on, in a line: its failed sections, and for the corpus the
// files that diverged.
std::string oracle_failure(const Json& doc) {
  std::vector<std::string> parts;
  if (doc.contains("sections") && doc["sections"].is_object()) {
    for (const auto& [name, s] : doc["sections"].items()) {
      if (!s.is_object() || s.value("status", "") != oracle_pass::kFailed) continue;
      std::string part = name;
      if (s.contains("files") && s["files"].is_array()) {
        std::vector<std::string> files;
        for (const auto& f : s["files"]) {
          if (f.is_object() && f.value("status", "") == oracle_pass::kFailed) {
            files.push_back(f.value("file", "?"));
          }
        }
        if (!files.empty()) part += fmt::format(" ({})", fmt::join(files, ", "));
      }
      if (s.contains("what") && s["what"].is_string()) {
        part += ": " + s["what"].get<std::string>();
      }
      parts.push_back(part);
    }
  }
  if (doc.value("interrupted", false)) parts.push_back("interrupted");
  return parts.empty() ? "no section passed" : fmt::format("{}", fmt::join(parts, "; "));
}

struct OracleGate {
  bool ran = false;
  bool passed = false;
  bool interrupted = false;
  std::string bundle;  // relative to the evidence bundle: an oracle pass's
  std::string failure;
  std::string log;          // relative to the evidence bundle: a gate command's output
  std::string exit_status;  // a gate command's: "exit 0", "signal 9", "timed out after 600 s"
};

std::string_view gate_name(const ResolvedSide& side) {
  return side.oracle ? "oracle pass" : "gate command";
}

// A gate command's output kept whole up to this much of each stream.
constexpr std::size_t kGateOutputBytes = 1 << 20;

// The side's own correctness command, run to completion in the proposal's folder: it passes
// when it exits 0. What it printed is kept as logs/gate-<side>.log.
OracleGate run_gate_command(EvidenceBundle& b, const ResolvedSide& side, std::string_view which,
                            std::ostream& log) {
  OracleGate gate;
  gate.ran = true;
  log << fmt::format("propose: the {}'s gate ({})\n", which, fmt::join(side.gate_command, " "));
  const proc::ToolRun run = proc::run_to_completion(side.gate_command, std::nullopt,
                                                    static_cast<int>(side.gate_timeout_s) * 1000,
                                                    kGateOutputBytes, side.gate_dir);
  gate.exit_status = !run.started    ? "not started: " + run.error
                     : run.timed_out ? fmt::format("timed out after {} s", side.gate_timeout_s)
                     : run.signaled  ? fmt::format("signal {}", run.signal)
                                     : fmt::format("exit {}", run.exit_code);
  gate.passed = run.started && !run.timed_out && !run.signaled && run.exit_code == 0;
  gate.log = fmt::format("logs/gate-{}.log", which);
  b.text(gate.log, fmt::format("$ {}\n(in {})\n--- stdout\n{}--- stderr\n{}--- {}\n",
                               fmt::join(side.gate_command, " "), side.gate_dir, run.out, run.err,
                               gate.exit_status));
  if (!gate.passed) {
    gate.failure = fmt::format("its gate command ended with {} ({})", gate.exit_status, gate.log);
  }
  log << fmt::format("propose: the {}'s gate {}{}\n", which, gate.passed ? "passed" : "FAILED",
                     gate.failure.empty() ? "" : ": " + gate.failure);
  return gate;
}

OracleGate run_gate(EvidenceBundle& b, const ResolvedSide& side, std::string_view which,
                    const ProposeOptions& o, const std::string& scratch, std::ostream& log) {
  if (!side.oracle) return run_gate_command(b, side, which, log);
  OracleGate gate;
  oracle_pass::PassOptions pass;
  pass.ledger_worker = o.ledger_worker;
  pass.work_dir = scratch + "/oracle-" + std::string(which);
  std::error_code ec;
  fs::create_directories(pass.work_dir, ec);
  std::ostringstream pass_log;
  pass.log = &pass_log;
  proc::InterruptWatch interrupt;
  pass.should_stop = [&interrupt] { return interrupt.interrupted(); };
  log << fmt::format("propose: the {}'s oracle pass ({})\n", which, side.oracle->file);
  auto record = oracle_pass::run_oracle_pass(*side.oracle, pass);
  fs::remove_all(pass.work_dir, ec);
  gate.ran = true;
  if (!record) {
    gate.failure = "the pass could not run: " + record.error().message;
    return gate;
  }
  auto written = oracle_pass::write_oracle_bundle(*record, *side.oracle, b.root() + "/oracle",
                                                  std::string(which));
  b.text(fmt::format("logs/oracle-{}.log", which), pass_log.str());
  if (written) gate.bundle = fs::relative(written->path, b.root()).string();
  gate.interrupted = record->interrupted();
  gate.passed = record->passed() && written && written->valid;
  if (!record->passed()) gate.failure = oracle_failure(record->document);
  if (!written) gate.failure = "its bundle could not be written: " + written.error().message;
  if (written && !written->valid) gate.failure = "its bundle is invalid (" + written->path + ")";
  log << fmt::format("propose: the {}'s oracle pass {}{}\n", which,
                     gate.passed ? "passed" : "FAILED",
                     gate.failure.empty() ? "" : ": " + gate.failure);
  return gate;
}

struct SessionRecord {
  Side side;
  std::string name;    // s01, ...
  std::string bundle;  // relative to the evidence bundle
  bool complete = false;
};

std::string eta_text(std::uint64_t ns) {
  const std::uint64_t s = ns / 1'000'000'000;
  return s >= 60 ? fmt::format("{}m{:02}s", s / 60, s % 60) : fmt::format("{}s", s);
}

}  // namespace

Result<ProposeOutcome> run_proposal(const ResolvedProposal& r, const ProposeOptions& o,
                                    std::ostream& log) {
  const Proposal& p = r.proposal;
  const std::string name = o.name.empty() ? p.name + "-" + utc_now("%Y%m%dT%H%M%SZ") : o.name;
  // Ctrl-C or SIGTERM anywhere stops the proposal with what it has; the oracle passes and the
  // sessions watch too (watches nest), so none is lost between them.
  proc::InterruptWatch interrupt;
  auto staged = EvidenceBundle::create(o.out_dir, name);
  if (!staged) return staged.error();
  EvidenceBundle& b = *staged;
  const std::string scratch =
      (fs::path(o.out_dir) / fmt::format(".scratch-propose-{}", ::getpid())).string();

  const std::vector<Side> order = proposal::session_order(r.seed, p.sessions);
  Json order_json = Json::array();
  for (Side s : order) order_json.push_back(std::string(to_string(s)));
  Json record = {{"schema", "jbench.proposal"},
                 {"schema_version", 1},
                 {"status", "running"},
                 {"bundle", name},
                 {"declared_utc", utc_now("%FT%TZ")},
                 {"proposal",
                  {{"name", p.name},
                   {"file", p.file},
                   {"copy", "proposal.yaml"},
                   {"sha256", p.sha256},
                   {"matrix", p.matrix}}},
                 {"rule", Json::parse(canonical_rule_text(p))},
                 {"rule_sha256", r.rule_sha256},
                 {"sides",
                  {{"baseline", side_json(p.baseline, r.baseline)},
                   {"candidate", side_json(p.candidate, r.candidate)}}},
                 {"sessions_per_side", p.sessions},
                 {"seed", std::to_string(r.seed)},
                 {"order", order_json},
                 {"accept_cells", r.accept_cells}};
  // Written before anything runs: the rule and its hash are on disk before the first timing.
  // If they cannot be, nothing is timed: the bundle is sealed invalid with what was written.
  b.text("proposal.yaml", p.source_text);
  b.json("proposal.json", record);
  const bool registered = b.all_written();

  Decision decision;
  bool interrupted = false;
  std::vector<SessionRecord> sessions;
  Json comparison_json;
  std::vector<std::string> build_differences, setting_differences;

  OracleGate candidate_gate, baseline_gate;
  if (registered) candidate_gate = run_gate(b, r.candidate, "candidate", o, scratch, log);
  if (!registered) {
    decision = proposal::decision_without_timing(
        Verdict::inconclusive,
        fmt::format("nothing was run: the proposal could not be recorded before the first "
                    "timing ({})",
                    b.failures().front()));
  } else if (!candidate_gate.passed) {
    interrupted = candidate_gate.interrupted;
    decision = interrupted
                   ? proposal::decision_without_timing(
                         Verdict::inconclusive, "interrupted during the candidate's oracle pass")
                   : proposal::decision_without_timing(
                         Verdict::rejected,
                         fmt::format("the candidate fails its {}, so it was never timed: {}",
                                     gate_name(r.candidate), candidate_gate.failure));
  } else if (interrupt.interrupted()) {
    interrupted = true;
    decision = proposal::decision_without_timing(Verdict::inconclusive,
                                                 "interrupted before the baseline's oracle pass");
  } else {
    baseline_gate = run_gate(b, r.baseline, "baseline", o, scratch, log);
    if (!baseline_gate.passed) {
      interrupted = baseline_gate.interrupted;
      decision = proposal::decision_without_timing(
          Verdict::inconclusive,
          interrupted ? std::string("interrupted during the baseline's oracle pass")
                      : fmt::format("the baseline fails its {}, so there is nothing right to "
                                    "compare the candidate with: {}",
                                    gate_name(r.baseline), baseline_gate.failure));
    }
  }

  if (candidate_gate.passed && baseline_gate.passed) {
    std::array<std::uint32_t, 2> done{};
    const std::uint64_t t0 = monotonic_ns();
    // A signal sets the flag every watch shares, whether it came between sessions or during one
    // (which then finalizes its own bundle as interrupted, or never starts).
    const auto stop_if_interrupted = [&] {
      if (!interrupt.interrupted()) return false;
      interrupted = true;
      decision = proposal::decision_without_timing(
          Verdict::inconclusive,
          fmt::format("interrupted after {} of {} sessions", sessions.size(), order.size()));
      return true;
    };
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (stop_if_interrupted()) break;
      const Side side = order[i];
      const ResolvedSide& rs = side == Side::baseline ? r.baseline : r.candidate;
      SessionRecord s{side, fmt::format("s{:02}", ++done[side == Side::baseline ? 0 : 1]), "",
                      false};
      const std::uint64_t elapsed = monotonic_ns() - t0;
      log << fmt::format(
          "propose: session {}/{} ({} {}){}\n", i + 1, order.size(), to_string(side), s.name,
          i == 0 ? std::string() : ", ETA " + eta_text(elapsed / i * (order.size() - i)));
      SessionOptions so;
      so.out_dir = b.root() + "/" + std::string(to_string(side));
      so.bundle_name = s.name;
      so.worker_dir = rs.worker_dir;
      so.scratch_dir = scratch + "/" + std::string(to_string(side)) + "-" + s.name;
      std::ostringstream session_log;
      // A signal during the session stops it, and it finalizes its bundle as interrupted.
      Result<SessionOutcome> outcome = run_session(rs.plan, so, session_log);
      b.text(fmt::format("logs/{}-{}.log", to_string(side), s.name), session_log.str());
      std::error_code ec;
      fs::remove_all(so.scratch_dir, ec);
      if (!outcome && stop_if_interrupted()) break;  // stopped before it could run anything
      if (!outcome) {
        decision = proposal::decision_without_timing(
            Verdict::inconclusive, fmt::format("the {} session {} could not run: {}",
                                               to_string(side), s.name, outcome.error().message));
        break;
      }
      s.bundle = fs::relative(outcome->bundle_path, b.root()).string();
      s.complete = outcome->complete;
      sessions.push_back(s);
      if (stop_if_interrupted()) break;
    }
    if (!interrupted && sessions.size() == order.size()) {
      compare::CompareOptions co;
      co.fdr = p.rule.fdr;
      co.threshold = p.rule.improvement_at_least;
      co.allow_different_settings = r.settings_differ;
      co.allow_different_build = r.builds_differ;
      log << "propose: comparing the sessions\n";
      // Named inside the evidence bundle, as a reader of the finished bundle finds them.
      const auto side_in_bundle = [&b](const char* which) {
        compare::CompareSide side = compare::read_compare_side(b.root() + "/" + which);
        side.dir = which;
        for (auto& member : side.bundles) member = fs::relative(member, b.root()).string();
        return side;
      };
      const compare::Comparison c =
          compare::compare_bundles(side_in_bundle("baseline"), side_in_bundle("candidate"), co);
      comparison_json = compare::comparison_to_json(c);
      b.json("comparison.json", comparison_json);
      b.text("comparison.txt", compare::comparison_to_text(c));
      build_differences = c.build_differences;
      setting_differences = c.setting_differences;
      if (c.outcome == compare::CompareOutcome::refused || (c.rows.empty() && !c.invalid.empty())) {
        std::vector<std::string> why = c.refusals;
        why.insert(why.end(), c.invalid.begin(), c.invalid.end());
        decision = proposal::decision_without_timing(
            Verdict::inconclusive,
            fmt::format("the sessions could not be compared: {}", fmt::join(why, "; ")));
      } else {
        // From the document the bundle keeps, as `jbench validate` derives the verdict again.
        decision = proposal::decide(p.rule, p.counters, proposal::rows_from_json(comparison_json),
                                    r.accept_cells);
      }
    }
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);

  Json session_list = Json::array();
  for (const auto& s : sessions) {
    session_list.push_back({{"side", std::string(to_string(s.side))},
                            {"name", s.name},
                            {"bundle", s.bundle},
                            {"complete", s.complete}});
  }
  const auto gate_json = [](const OracleGate& g) -> Json {
    if (!g.ran) return {{"ran", false}};
    Json out = {{"ran", true},
                {"passed", g.passed},
                {"bundle", g.bundle.empty() ? Json(nullptr) : Json(g.bundle)},
                {"failure", g.failure.empty() ? Json(nullptr) : Json(g.failure)}};
    if (!g.log.empty()) out.update({{"log", g.log}, {"exit", g.exit_status}});
    return out;
  };
  record["status"] = interrupted ? "interrupted" : "complete";
  record["finished_utc"] = utc_now("%FT%TZ");
  record["oracle"] = {{"candidate", gate_json(candidate_gate)},
                      {"baseline", gate_json(baseline_gate)}};
  record["sessions"] = session_list;
  record["comparison"] = comparison_json.is_null() ? Json(nullptr) : Json("comparison.json");
  record["build_differences"] = build_differences;
  record["setting_differences"] = setting_differences;
  record["decision"] = proposal::decision_to_json(decision);
  record["verdict"] = proposal::to_string(decision.verdict);

  ProposeOutcome out;
  out.verdict = decision.verdict;
  out.report = evidence_text(record, comparison_json);
  b.json("proposal.json", record);
  b.text("report.txt", out.report);
  auto sealed = b.seal(interrupted);
  if (!sealed) return sealed.error();
  out.valid = sealed->valid;
  out.bundle_path = sealed->path;
  out.not_written = sealed->failures;
  if (!out.valid) {
    for (const auto& f : sealed->report.findings) {
      out.report += fmt::format("invalid: {} {}: {}\n", f.code, f.file, f.message);
    }
  }
  return out;
}

}  // namespace jbench::propose
