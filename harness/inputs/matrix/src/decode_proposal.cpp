// Decodes a proposal file (proposal.h; the format is docs/proposal.md's) with the matrix
// language's strict, located reads.
#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "decode_support.h"
#include "jbench/common/sha256.h"
#include "jbench/matrix/load.h"
#include "jbench/matrix/proposal.h"
#include "jbench/matrix/yaml_tree.h"

namespace jbench {
namespace {

using decode::Context;
using decode::Fields;

constexpr std::array<std::string_view, 12> kProposalKeys = {
    "version", "name",     "description", "matrix",   "only", "sessions",
    "seed",    "baseline", "candidate",   "counters", "rule", "repetitions"};

// An axis -> values mapping ({lane: [reader], workers: [1, 2]}): each value a scalar, kept as text.
std::vector<std::pair<std::string, std::vector<std::string>>> axis_values(Context& ctx,
                                                                          const yaml::Node& n,
                                                                          const std::string& path) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  if (!ctx.is_map(n, path)) return out;
  for (const auto& e : n.entries) {
    const std::string p = decode::join_path(path, e.key.scalar);
    std::vector<std::string> values;
    if (e.value.kind == yaml::Node::Kind::scalar) {
      values.push_back(e.value.scalar);
    } else if (ctx.is_sequence(e.value, p)) {
      for (std::size_t i = 0; i < e.value.items.size(); ++i) {
        if (auto s = ctx.string(e.value.items[i], decode::index_path(p, i))) values.push_back(*s);
      }
      if (e.value.items.empty()) ctx.error(e.value, p, "give at least one value");
    }
    out.emplace_back(e.key.scalar, std::move(values));
  }
  return out;
}

std::string folder_of(const std::string& file) {
  return std::filesystem::path(file).parent_path().string();
}

void decode_gate(Context& ctx, const yaml::Node& n, const std::string& path, ProposalSide& side) {
  static constexpr std::array<std::string_view, 2> kKeys = {"command", "timeout_s"};
  Fields fields(ctx, n, path, kKeys);
  if (!fields.valid()) return;
  if (const auto* c = fields.required("command")) {
    side.gate_command = ctx.command(*c, fields.path("command"), folder_of(ctx.file()));
  }
  if (const auto* t = fields.optional("timeout_s")) {
    if (auto v = ctx.integer(*t, fields.path("timeout_s"), 1, 86'400)) {
      side.gate_timeout_s = static_cast<std::uint32_t>(*v);
    }
  }
}

void decode_side(Context& ctx, const yaml::Node& n, const std::string& path, ProposalSide& side) {
  static constexpr std::array<std::string_view, 5> kKeys = {"params", "worker_dir", "command",
                                                            "oracle", "gate"};
  Fields fields(ctx, n, path, kKeys);
  if (!fields.valid()) return;
  side.where = ctx.where(n);
  if (const auto* p = fields.optional("params"); p && ctx.is_map(*p, fields.path("params"))) {
    for (const auto& e : p->entries) {
      const std::string key_path = decode::join_path(fields.path("params"), e.key.scalar);
      if (auto v = ctx.string(e.value, key_path)) {
        side.params.push_back({e.key.scalar, *v, ctx.where(e.value)});
      }
    }
  }
  if (const auto* w = fields.optional("worker_dir")) {
    if (auto v = ctx.string(*w, fields.path("worker_dir"))) side.worker_dir = *v;
  }
  if (const auto* c = fields.optional("command")) {
    side.command_where = ctx.where(*c);
    side.command = ctx.command(*c, fields.path("command"), folder_of(ctx.file()));
  }
  const auto* oracle = fields.optional("oracle");
  const auto* gate = fields.optional("gate");
  if (oracle && gate) {
    ctx.error(*gate, fields.path("gate"),
              "give one correctness gate: 'oracle' (an oracle matrix) or 'gate' (a command), "
              "not both");
  } else if (oracle) {
    side.oracle_where = ctx.where(*oracle);
    if (auto v = ctx.string(*oracle, fields.path("oracle"))) side.oracle = *v;
  } else if (gate) {
    side.oracle_where = ctx.where(*gate);
    decode_gate(ctx, *gate, fields.path("gate"), side);
  } else {
    ctx.error(n, path,
              "name its correctness gate: 'oracle: FILE' (an oracle matrix, for an SQL engine) "
              "or 'gate: {command: [...]}' (a command of the project's own that must exit 0)");
  }
}

void decode_counters(Context& ctx, const yaml::Node& n, Proposal& p) {
  if (!ctx.is_sequence(n, "counters")) return;
  static constexpr std::array<std::string_view, 3> kKeys = {"metric", "expect", "by_at_least"};
  static constexpr std::array<std::string_view, 2> kDirections = {"decrease", "increase"};
  for (std::size_t i = 0; i < n.items.size(); ++i) {
    const std::string path = decode::index_path("counters", i);
    Fields fields(ctx, n.items[i], path, kKeys);
    if (!fields.valid()) continue;
    ProposalCounter c;
    c.where = ctx.where(n.items[i]);
    if (const auto* m = fields.required("metric")) {
      if (auto v = ctx.string(*m, fields.path("metric"))) c.metric = *v;
    }
    if (const auto* e = fields.required("expect")) {
      if (auto v = ctx.one_of(*e, fields.path("expect"), kDirections)) {
        c.expect = *v == "increase" ? CounterDirection::increase : CounterDirection::decrease;
      }
    }
    if (const auto* b = fields.optional("by_at_least")) {
      if (auto v = ctx.number(*b, fields.path("by_at_least"), 0, 0.99)) c.by_at_least = *v;
    }
    p.counters.push_back(std::move(c));
  }
  if (n.items.empty()) {
    ctx.error(n, "counters",
              "name at least one counter the change is meant to move (a speed-up that moves no "
              "counter is unexplained)");
  }
}

void decode_rule(Context& ctx, const yaml::Node& n, DecisionRule& r) {
  static constexpr std::array<std::string_view, 6> kKeys = {"primary",       "improvement_at_least",
                                                            "accept_cells",  "regression_at_most",
                                                            "guard_metrics", "fdr"};
  Fields fields(ctx, n, "rule", kKeys);
  if (!fields.valid()) return;
  r.where = ctx.where(n);
  if (const auto* x = fields.required("primary")) {
    if (auto v = ctx.string(*x, "rule.primary")) r.primary = *v;
  }
  if (const auto* x = fields.required("improvement_at_least")) {
    if (auto v = ctx.number(*x, "rule.improvement_at_least", 0, 10)) r.improvement_at_least = *v;
  }
  if (const auto* x = fields.optional("accept_cells")) {
    r.accept_cells = axis_values(ctx, *x, "rule.accept_cells");
  }
  if (const auto* x = fields.required("regression_at_most")) {
    if (auto v = ctx.number(*x, "rule.regression_at_most", 0, 10)) r.regression_at_most = *v;
  }
  if (const auto* x = fields.optional("guard_metrics")) {
    if (ctx.is_sequence(*x, "rule.guard_metrics")) {
      for (std::size_t i = 0; i < x->items.size(); ++i) {
        if (auto v = ctx.string(x->items[i], decode::index_path("rule.guard_metrics", i))) {
          r.guard_metrics.push_back(*v);
        }
      }
    }
  }
  if (r.guard_metrics.empty()) r.guard_metrics.push_back(r.primary);
  if (const auto* x = fields.optional("fdr")) {
    if (auto v = ctx.number(*x, "rule.fdr", 0.0001, 0.5)) r.fdr = *v;
  }
}

void decode_proposal(Context& ctx, const yaml::Node& root, Proposal& p) {
  Fields fields(ctx, root, "", kProposalKeys);
  if (!fields.valid()) return;
  if (const auto* n = fields.required("version")) ctx.integer(*n, "version", 1, 1);
  if (const auto* n = fields.required("name")) {
    if (auto v = ctx.identifier(*n, "name")) p.name = *v;
  }
  if (const auto* n = fields.optional("description")) {
    if (auto v = ctx.string(*n, "description")) p.description = *v;
  }
  if (const auto* n = fields.required("matrix")) {
    p.matrix_where = ctx.where(*n);
    if (auto v = ctx.string(*n, "matrix")) p.matrix = *v;
  }
  if (const auto* n = fields.optional("only")) {
    p.only_where = ctx.where(*n);
    p.only = axis_values(ctx, *n, "only");
  }
  if (const auto* n = fields.optional("repetitions")) {
    ctx.error(*n, "repetitions",
              "a proposal runs 'sessions' of one repetition each, alternating the two sides; "
              "give 'sessions: N' instead");
  }
  if (const auto* n = fields.optional("sessions")) {
    p.sessions_where = ctx.where(*n);
    if (auto v = ctx.integer(*n, "sessions", 3, 500)) p.sessions = static_cast<std::uint32_t>(*v);
  }
  if (const auto* n = fields.optional("seed")) {
    if (auto v = ctx.integer(*n, "seed", 0, UINT64_MAX)) p.seed = *v;
  }
  if (const auto* n = fields.required("baseline")) decode_side(ctx, *n, "baseline", p.baseline);
  if (const auto* n = fields.required("candidate")) decode_side(ctx, *n, "candidate", p.candidate);
  if (const auto* n = fields.required("counters")) decode_counters(ctx, *n, p);
  if (const auto* n = fields.required("rule")) decode_rule(ctx, *n, p.rule);

  // The two sides must differ in something the proposal names: settings or a build.
  const auto* b = root.find("baseline");
  const auto* c = root.find("candidate");
  if (b && c && ctx.error_count() == 0 && p.baseline.params.empty() && p.candidate.params.empty() &&
      !p.baseline.worker_dir && !p.candidate.worker_dir && p.baseline.command.empty() &&
      p.candidate.command.empty()) {
    ctx.error(*c, "candidate",
              "the candidate names neither 'params' nor a build ('worker_dir', or 'command' for "
              "a process worker): say what it changes");
  }
}

nlohmann::json axis_json(const std::vector<std::pair<std::string, std::vector<std::string>>>& v) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [axis, values] : v) out[axis] = values;
  return out;
}

}  // namespace

std::string_view to_string(CounterDirection d) {
  return d == CounterDirection::increase ? "increase" : "decrease";
}

LoadedProposal parse_proposal(std::string_view text, const std::string& file) {
  LoadedProposal out;
  yaml::Tree tree;
  if (!decode::load_matrix_tree(text, file, tree, out.diagnostics)) return out;
  Proposal p;
  p.file = file;
  p.sha256 = sha256_hex(text);
  p.source_text = std::string(text);
  Context ctx(file, out.diagnostics);
  decode_proposal(ctx, tree.root, p);
  if (out.diagnostics.empty()) out.proposal = std::move(p);
  return out;
}

LoadedProposal load_proposal_file(const std::string& path) {
  std::string text;
  if (auto bad = read_matrix_text(path, text)) {
    LoadedProposal out;
    out.diagnostics.push_back(std::move(*bad));
    return out;
  }
  return parse_proposal(text, path);
}

std::string canonical_rule_text(const Proposal& p) {
  const DecisionRule& r = p.rule;
  nlohmann::json counters = nlohmann::json::array();
  for (const auto& c : p.counters) {
    counters.push_back(
        {{"metric", c.metric}, {"expect", to_string(c.expect)}, {"by_at_least", c.by_at_least}});
  }
  // nlohmann's objects keep their keys sorted, so the text depends only on the values.
  const nlohmann::json doc = {{"primary", r.primary},
                              {"improvement_at_least", r.improvement_at_least},
                              {"accept_cells", axis_json(r.accept_cells)},
                              {"regression_at_most", r.regression_at_most},
                              {"guard_metrics", r.guard_metrics},
                              {"fdr", r.fdr},
                              {"counters", counters}};
  return doc.dump();
}

std::string rule_sha256(const Proposal& p) { return sha256_hex(canonical_rule_text(p)); }

}  // namespace jbench
