// The evidence bundle of `jbench propose` (docs/proposal.md): its record against the proposal it
// copies, the decision rule's hash against the one recorded before the first run (in the record
// and in every session's manifest), every bundle it holds valid in its own right, and the
// verdict re-derived from the comparison it holds.
#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "checks.h"
#include "jbench/common/sha256.h"
#include "jbench/matrix/proposal.h"
#include "jbench/proposal_rules/decide.h"

namespace jbench::validate {
namespace {

namespace fs = std::filesystem;

// A nested bundle (a session, an oracle pass), validated as anyone would validate it alone; its
// findings are named under the evidence bundle's path.
bool nested_valid(const std::string& root, const std::string& relative, const std::string& what,
                  Findings& findings) {
  if (!safe_relative(relative)) {
    findings.add(
        "proposal.bundle_path", "proposal.json", "",
        fmt::format("the {} bundle's path '{}' leaves the evidence bundle", what, relative));
    return false;
  }
  const ValidationReport nested = validate_bundle(root + "/" + relative);
  for (const auto& f : nested.findings) {
    findings.add("proposal.nested_invalid", relative + (f.file.empty() ? "" : "/" + f.file),
                 f.pointer, fmt::format("the {} bundle: {}: {}", what, f.code, f.message));
  }
  return nested.valid();
}

// The rule hash a session bundle's manifest carries (a matrix override, docs/proposal.md).
std::optional<std::string> session_rule_hash(const std::string& dir) {
  // The session's own validation has reported an unreadable manifest already.
  std::vector<Finding> already_reported;
  Findings sink(already_reported);
  auto manifest = load_plain_json(dir, "manifest.json", sink);
  if (!manifest) return std::nullopt;
  const Json* matrix = member(*manifest, "matrix");
  const Json* overrides = matrix ? member(*matrix, "overrides") : nullptr;
  if (!overrides || !overrides->is_array()) return std::nullopt;
  for (const auto& o : *overrides) {
    if (string_at(o, "key") == "proposal.rule_sha256") return string_at(o, "value");
  }
  return std::nullopt;
}

// A gate command's record (docs/proposal.md, "The correctness gate"): its log is kept, ends with
// how the command ended as the record says, and it passed exactly when it exited 0.
void check_gate_command(const std::string& root, const Json& gate, const char* side,
                        Findings& findings) {
  auto log = string_at(gate, "log");
  if (!log) return;  // an oracle pass: its bundle is checked instead
  const std::string pointer = fmt::format("/oracle/{}", side);
  const auto ended = string_at(gate, "exit").value_or("");
  if (gate.value("passed", false) != (ended == "exit 0")) {
    findings.add("proposal.gate_mismatch", "proposal.json", pointer + "/passed",
                 fmt::format("the record says the {}'s gate command {}, but it ended with '{}'",
                             side, gate.value("passed", false) ? "passed" : "failed", ended));
  }
  if (!safe_relative(*log)) {
    findings.add("proposal.bundle_path", "proposal.json", pointer + "/log",
                 fmt::format("the gate log's path '{}' leaves the evidence bundle", *log));
    return;
  }
  auto text = read_document(root, *log, findings);
  if (text && !text->ends_with(fmt::format("--- {}\n", ended))) {
    findings.add("proposal.gate_mismatch", *log, "",
                 fmt::format("the {}'s gate log does not end with how the record says its "
                             "command ended ('{}')",
                             side, ended));
  }
}

// The oracle gate: each pass that ran is a valid bundle, and says what the record says.
void check_proposal_gates(const std::string& root, const Json& record, Findings& findings) {
  const Json* oracle = member(record, "oracle");
  if (!oracle) return;
  for (const char* side : {"candidate", "baseline"}) {
    const Json* g = member(*oracle, side);
    if (!g || !g->value("ran", false)) continue;
    check_gate_command(root, *g, side, findings);
    auto bundle = string_at(*g, "bundle");
    if (!bundle) continue;
    nested_valid(root, *bundle, fmt::format("{} oracle", side), findings);
    auto doc = load_plain_json(root + "/" + *bundle, "oracle.json", findings);
    if (doc && doc->value("passed", false) != g->value("passed", false)) {
      findings.add("proposal.oracle_mismatch", "proposal.json",
                   fmt::format("/oracle/{}/passed", side),
                   fmt::format("the record says the {}'s oracle pass {}, its bundle says not", side,
                               g->value("passed", false) ? "passed" : "failed"));
    }
  }
}

// Every session: present, valid, carrying the hash recorded before the first run; a finished
// proposal ran every session of its recorded order, in that order; and no session folder is
// there that the record does not list.
void check_proposal_sessions(const std::string& root, const Json& record,
                             const std::optional<std::string>& recorded_rule_hash,
                             Findings& findings) {
  std::set<std::string> listed;
  const Json* sessions = member(record, "sessions");
  if (sessions && sessions->is_array()) {
    for (std::size_t i = 0; i < sessions->size(); ++i) {
      auto bundle = string_at((*sessions)[i], "bundle");
      if (!bundle) continue;
      listed.insert(*bundle);
      if (!nested_valid(root, *bundle, "session", findings)) continue;
      if (session_rule_hash(root + "/" + *bundle) != recorded_rule_hash) {
        findings.add("proposal.session_rule_mismatch", *bundle + "/manifest.json",
                     "/matrix/overrides",
                     "the session does not carry the rule hash the record declares: it was not "
                     "run for this rule");
      }
    }
  }
  const Json* order = member(record, "order");
  if (string_at(record, "status") == std::string("complete") && string_at(record, "comparison") &&
      sessions && order && sessions->is_array() && order->is_array()) {
    bool same = sessions->size() == order->size();
    for (std::size_t i = 0; same && i < sessions->size(); ++i) {
      const Json& side = (*order)[i];
      same = side.is_string() && string_at((*sessions)[i], "side") == side.get<std::string>();
    }
    if (!same) {
      findings.add("proposal.sessions_mismatch", "proposal.json", "/sessions",
                   fmt::format("{} sessions are listed where the recorded order has {}, or not in "
                               "that order",
                               sessions->size(), order->size()));
    }
  }
  for (const char* side : {"baseline", "candidate"}) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root + "/" + side, ec)) {
      const std::string rel = std::string(side) + "/" + e.path().filename().string();
      if (e.is_directory() && !listed.count(rel)) {
        findings.add("proposal.session_unlisted", rel, "",
                     "a session the record does not list: evidence added after the run");
      }
    }
  }
}

// The verdict, re-derived from the comparison the bundle holds.
void check_proposal_verdict(const std::string& root, const Json& record, const Proposal& proposal,
                            Findings& findings) {
  const Json* decision = member(record, "decision");
  const auto verdict = string_at(record, "verdict");
  const auto comparison_file = string_at(record, "comparison");
  if (!comparison_file) {
    if (verdict == std::string("accepted")) {
      findings.add("proposal.verdict_mismatch", "proposal.json", "/verdict",
                   "accepted without a comparison");
    }
    return;
  }
  auto comparison = load_schema_checked(root, *comparison_file, "compare-report", findings);
  std::set<std::string> accept;
  if (const Json* a = member(record, "accept_cells"); a && a->is_array()) {
    for (const auto& c : *a) {
      if (c.is_string()) accept.insert(c.get<std::string>());
    }
  }
  if (!comparison || !decision) return;
  const auto again = proposal_rules::decide(proposal.rule, proposal.counters,
                                            proposal_rules::rows_from_json(*comparison), accept);
  const bool refused = string_at(*comparison, "outcome") == std::string("refused");
  if (!refused && verdict != std::string(proposal_rules::to_string(again.verdict))) {
    findings.add("proposal.verdict_mismatch", "proposal.json", "/verdict",
                 fmt::format("the record says {}, but the rule applied to comparison.json "
                             "gives {}",
                             verdict.value_or("(none)"), proposal_rules::to_string(again.verdict)));
  }
}

}  // namespace

void check_proposal(const std::string& root, Findings& findings) {
  auto record = load_schema_checked(root, "proposal.json", "proposal", findings);
  if (!record || !record->is_object()) return;
  auto text = read_document(root, "proposal.yaml", findings);
  if (!text) return;
  const Json* recorded_proposal = member(*record, "proposal");
  if (!recorded_proposal || !recorded_proposal->is_object()) return;  // the schema said so
  const auto recorded_file_hash = string_at(*recorded_proposal, "sha256");
  if (recorded_file_hash != sha256_hex(*text)) {
    findings.add("proposal.file_mismatch", "proposal.yaml", "",
                 "the proposal's sha256 is not the one proposal.json records: the proposal was "
                 "edited after the run");
  }
  const LoadedProposal parsed = parse_proposal(*text, "proposal.yaml");
  if (!parsed.proposal) {
    findings.add("proposal.unreadable", "proposal.yaml", "",
                 fmt::format("the proposal does not parse: {}",
                             parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].message));
    return;
  }
  const std::string rule_hash = rule_sha256(*parsed.proposal);
  const auto recorded_rule_hash = string_at(*record, "rule_sha256");
  if (recorded_rule_hash != rule_hash) {
    findings.add("proposal.rule_mismatch", "proposal.yaml", "",
                 fmt::format("the decision rule hashes to {}, but the rule recorded before the "
                             "first run hashes to {}: the rule was edited after the run",
                             rule_hash, recorded_rule_hash.value_or("(none)")));
  }
  check_proposal_gates(root, *record, findings);
  check_proposal_sessions(root, *record, recorded_rule_hash, findings);
  check_proposal_verdict(root, *record, *parsed.proposal, findings);
}

}  // namespace jbench::validate
