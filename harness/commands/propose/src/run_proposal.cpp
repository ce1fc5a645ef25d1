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
#include "jbench/proposal_rules/session_order.h"
#include "jbench/propose/propose.h"
#include "jbench/run/session.h"
#include "jbench/seal/evidence_bundle.h"

namespace jbench::propose {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using proposal_rules::Decision;
using proposal_rules::Side;
using proposal_rules::Verdict;

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

Json gate_json(const OracleGate& g) {
  if (!g.ran) return {{"ran", false}};
  Json out = {{"ran", true},
              {"passed", g.passed},
              {"bundle", g.bundle.empty() ? Json(nullptr) : Json(g.bundle)},
              {"failure", g.failure.empty() ? Json(nullptr) : Json(g.failure)}};
  if (!g.log.empty()) out.update({{"log", g.log}, {"exit", g.exit_status}});
  return out;
}

// One proposal, run as named steps over its evidence bundle: the record registered before any
// timing, the gates, the interleaved sessions, their comparison, and the seal. A step that ends
// the proposal early leaves its decision (without timing) for the seal.
class ProposalRun {
 public:
  ProposalRun(const ResolvedProposal& r, const ProposeOptions& o, EvidenceBundle& b,
              const proc::InterruptWatch& interrupt, std::ostream& log)
      : r_(r),
        p_(r.proposal),
        o_(o),
        b_(b),
        interrupt_(interrupt),
        log_(log),
        scratch_((fs::path(o.out_dir) / fmt::format(".scratch-propose-{}", ::getpid())).string()),
        order_(proposal_rules::session_order(r.seed, r.proposal.sessions)) {}

  // Written before anything runs: the rule and its hash are on disk before the first timing.
  // If they cannot be, nothing is timed: the bundle is sealed invalid with what was written.
  bool register_rule(const std::string& name);
  // The candidate's gate, then the baseline's: whether both passed.
  bool gates_pass();
  void time_sessions();
  void compare_sessions();
  Result<ProposeOutcome> seal();

 private:
  bool stop_if_interrupted();
  // A side's session `name`: run, its log kept; false when the proposal stops there.
  bool run_one_session(Side side, const std::string& name);

  const ResolvedProposal& r_;
  const Proposal& p_;
  const ProposeOptions& o_;
  EvidenceBundle& b_;
  const proc::InterruptWatch& interrupt_;
  std::ostream& log_;
  const std::string scratch_;
  const std::vector<Side> order_;
  Json record_;
  Decision decision_;
  bool interrupted_ = false;
  OracleGate candidate_gate_, baseline_gate_;
  std::vector<SessionRecord> sessions_;
  Json comparison_json_;
  std::vector<std::string> build_differences_, setting_differences_;
};

bool ProposalRun::register_rule(const std::string& name) {
  Json order_json = Json::array();
  for (Side s : order_) order_json.push_back(std::string(to_string(s)));
  record_ = {{"schema", "jbench.proposal"},
             {"schema_version", 1},
             {"status", "running"},
             {"bundle", name},
             {"declared_utc", utc_now("%FT%TZ")},
             {"proposal",
              {{"name", p_.name},
               {"file", p_.file},
               {"copy", "proposal.yaml"},
               {"sha256", p_.sha256},
               {"matrix", p_.matrix}}},
             {"rule", Json::parse(canonical_rule_text(p_))},
             {"rule_sha256", r_.rule_sha256},
             {"sides",
              {{"baseline", side_json(p_.baseline, r_.baseline)},
               {"candidate", side_json(p_.candidate, r_.candidate)}}},
             {"sessions_per_side", p_.sessions},
             {"seed", std::to_string(r_.seed)},
             {"order", order_json},
             {"accept_cells", r_.accept_cells}};
  b_.text("proposal.yaml", p_.source_text);
  b_.json("proposal.json", record_);
  if (b_.all_written()) return true;
  decision_ = proposal_rules::decision_without_timing(
      Verdict::inconclusive,
      fmt::format("nothing was run: the proposal could not be recorded before the first "
                  "timing ({})",
                  b_.failures().front()));
  return false;
}

bool ProposalRun::gates_pass() {
  candidate_gate_ = run_gate(b_, r_.candidate, "candidate", o_, scratch_, log_);
  if (!candidate_gate_.passed) {
    interrupted_ = candidate_gate_.interrupted;
    decision_ = interrupted_
                    ? proposal_rules::decision_without_timing(
                          Verdict::inconclusive, "interrupted during the candidate's oracle pass")
                    : proposal_rules::decision_without_timing(
                          Verdict::rejected,
                          fmt::format("the candidate fails its {}, so it was never timed: {}",
                                      gate_name(r_.candidate), candidate_gate_.failure));
    return false;
  }
  if (interrupt_.interrupted()) {
    interrupted_ = true;
    decision_ = proposal_rules::decision_without_timing(
        Verdict::inconclusive, "interrupted before the baseline's oracle pass");
    return false;
  }
  baseline_gate_ = run_gate(b_, r_.baseline, "baseline", o_, scratch_, log_);
  if (baseline_gate_.passed) return true;
  interrupted_ = baseline_gate_.interrupted;
  decision_ = proposal_rules::decision_without_timing(
      Verdict::inconclusive,
      interrupted_ ? std::string("interrupted during the baseline's oracle pass")
                   : fmt::format("the baseline fails its {}, so there is nothing right to "
                                 "compare the candidate with: {}",
                                 gate_name(r_.baseline), baseline_gate_.failure));
  return false;
}

// A signal sets the flag every watch shares, whether it came between sessions or during one
// (which then finalizes its own bundle as interrupted, or never starts).
bool ProposalRun::stop_if_interrupted() {
  if (!interrupt_.interrupted()) return false;
  interrupted_ = true;
  decision_ = proposal_rules::decision_without_timing(
      Verdict::inconclusive,
      fmt::format("interrupted after {} of {} sessions", sessions_.size(), order_.size()));
  return true;
}

bool ProposalRun::run_one_session(Side side, const std::string& name) {
  const ResolvedSide& rs = side == Side::baseline ? r_.baseline : r_.candidate;
  SessionOptions so;
  so.out_dir = b_.root() + "/" + std::string(to_string(side));
  so.bundle_name = name;
  so.worker_dir = rs.worker_dir;
  so.scratch_dir = scratch_ + "/" + std::string(to_string(side)) + "-" + name;
  std::ostringstream session_log;
  // A signal during the session stops it, and it finalizes its bundle as interrupted.
  Result<SessionOutcome> outcome = run_session(rs.plan, so, session_log);
  b_.text(fmt::format("logs/{}-{}.log", to_string(side), name), session_log.str());
  std::error_code ec;
  fs::remove_all(so.scratch_dir, ec);
  if (!outcome && stop_if_interrupted()) return false;  // stopped before it could run anything
  if (!outcome) {
    decision_ = proposal_rules::decision_without_timing(
        Verdict::inconclusive, fmt::format("the {} session {} could not run: {}", to_string(side),
                                           name, outcome.error().message));
    return false;
  }
  sessions_.push_back(
      {side, name, fs::relative(outcome->bundle_path, b_.root()).string(), outcome->complete});
  return !stop_if_interrupted();
}

void ProposalRun::time_sessions() {
  std::array<std::uint32_t, 2> done{};
  const std::uint64_t t0 = monotonic_ns();
  for (std::size_t i = 0; i < order_.size(); ++i) {
    if (stop_if_interrupted()) return;
    const Side side = order_[i];
    const std::string name = fmt::format("s{:02}", ++done[side == Side::baseline ? 0 : 1]);
    const std::uint64_t elapsed = monotonic_ns() - t0;
    log_ << fmt::format(
        "propose: session {}/{} ({} {}){}\n", i + 1, order_.size(), to_string(side), name,
        i == 0 ? std::string() : ", ETA " + eta_text(elapsed / i * (order_.size() - i)));
    if (!run_one_session(side, name)) return;
  }
}

void ProposalRun::compare_sessions() {
  if (interrupted_ || sessions_.size() != order_.size()) return;
  compare::CompareOptions co;
  co.fdr = p_.rule.fdr;
  co.threshold = p_.rule.improvement_at_least;
  co.allow_different_settings = r_.settings_differ;
  co.allow_different_build = r_.builds_differ;
  log_ << "propose: comparing the sessions\n";
  // Named inside the evidence bundle, as a reader of the finished bundle finds them.
  const auto side_in_bundle = [this](const char* which) {
    compare::CompareSide side = compare::read_compare_side(b_.root() + "/" + which);
    side.dir = which;
    for (auto& member : side.bundles) member = fs::relative(member, b_.root()).string();
    return side;
  };
  const compare::Comparison c =
      compare::compare_bundles(side_in_bundle("baseline"), side_in_bundle("candidate"), co);
  comparison_json_ = compare::comparison_to_json(c);
  b_.json("comparison.json", comparison_json_);
  b_.text("comparison.txt", compare::comparison_to_text(c));
  build_differences_ = c.build_differences;
  setting_differences_ = c.setting_differences;
  if (c.outcome == compare::CompareOutcome::refused || (c.rows.empty() && !c.invalid.empty())) {
    std::vector<std::string> why = c.refusals;
    why.insert(why.end(), c.invalid.begin(), c.invalid.end());
    decision_ = proposal_rules::decision_without_timing(
        Verdict::inconclusive,
        fmt::format("the sessions could not be compared: {}", fmt::join(why, "; ")));
    return;
  }
  // From the document the bundle keeps, as `jbench validate` derives the verdict again.
  decision_ = proposal_rules::decide(
      p_.rule, p_.counters, proposal_rules::rows_from_json(comparison_json_), r_.accept_cells);
}

Result<ProposeOutcome> ProposalRun::seal() {
  std::error_code ec;
  fs::remove_all(scratch_, ec);
  Json session_list = Json::array();
  for (const auto& s : sessions_) {
    session_list.push_back({{"side", std::string(to_string(s.side))},
                            {"name", s.name},
                            {"bundle", s.bundle},
                            {"complete", s.complete}});
  }
  record_["status"] = interrupted_ ? "interrupted" : "complete";
  record_["finished_utc"] = utc_now("%FT%TZ");
  record_["oracle"] = {{"candidate", gate_json(candidate_gate_)},
                       {"baseline", gate_json(baseline_gate_)}};
  record_["sessions"] = session_list;
  record_["comparison"] = comparison_json_.is_null() ? Json(nullptr) : Json("comparison.json");
  record_["build_differences"] = build_differences_;
  record_["setting_differences"] = setting_differences_;
  record_["decision"] = proposal_rules::decision_to_json(decision_);
  record_["verdict"] = proposal_rules::to_string(decision_.verdict);

  ProposeOutcome out;
  out.verdict = decision_.verdict;
  out.report = evidence_text(record_, comparison_json_);
  b_.json("proposal.json", record_);
  b_.text("report.txt", out.report);
  auto sealed = b_.seal(interrupted_);
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

}  // namespace

Result<ProposeOutcome> run_proposal(const ResolvedProposal& r, const ProposeOptions& o,
                                    std::ostream& log) {
  const std::string name =
      o.name.empty() ? r.proposal.name + "-" + utc_now("%Y%m%dT%H%M%SZ") : o.name;
  // Ctrl-C or SIGTERM anywhere stops the proposal with what it has; the oracle passes and the
  // sessions watch too (watches nest), so none is lost between them.
  proc::InterruptWatch interrupt;
  auto staged = EvidenceBundle::create(o.out_dir, name);
  if (!staged) return staged.error();
  ProposalRun run(r, o, *staged, interrupt, log);
  if (run.register_rule(name) && run.gates_pass()) {
    run.time_sessions();
    run.compare_sessions();
  }
  return run.seal();
}

}  // namespace jbench::propose
