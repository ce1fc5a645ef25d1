// Decodes an oracle matrix (oracle_matrix.h; the format is docs/oracle.md's) with the run
// matrix's strict, located reads.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

#include "decode_support.h"
#include "jbench/common/sha256.h"
#include "jbench/matrix/load.h"
#include "jbench/matrix/oracle_matrix.h"
#include "jbench/matrix/yaml_tree.h"

namespace jbench {
namespace {

using decode::Context;
using decode::Fields;

constexpr std::array<std::string_view, 16> kOracleKeys = {
    "version", "name",         "description", "seed",        "target", "oracle",
    "corpus",  "corpus_seeds", "generator",   "metamorphic", "plans",  "ledgers",
    "faults",  "crash_states", "waive",       "deadline_s"};
// What a target may decline, by the name `waive:` gives it.
constexpr std::array<std::string_view, 3> kWaivable = {"prepared", "column_names", "optimizations"};

std::vector<std::string> strings(Context& ctx, const yaml::Node& n, const std::string& path) {
  std::vector<std::string> out;
  if (!ctx.is_sequence(n, path)) return out;
  for (std::size_t i = 0; i < n.items.size(); ++i) {
    if (auto s = ctx.string(n.items[i], decode::index_path(path, i))) out.push_back(*s);
  }
  return out;
}

std::optional<OracleEngineSpec> decode_engine(Context& ctx, const yaml::Node& n,
                                              const std::string& path) {
  static constexpr std::array<std::string_view, 5> kKeys = {"engine", "pragmas", "optimizer",
                                                            "command", "timeout_ms"};
  Fields fields(ctx, n, path, kKeys);
  if (!fields.valid()) return std::nullopt;
  OracleEngineSpec e;
  e.where = ctx.where(n);
  const yaml::Node* engine = fields.optional("engine");
  const yaml::Node* command = fields.optional("command");
  if ((engine != nullptr) == (command != nullptr)) {
    ctx.error(n, path,
              "give either 'engine: sqlite' (in-process libsqlite3) or 'command: [program, "
              "args...]' (an engine speaking docs/oracle-protocol.md), not both or neither");
    return std::nullopt;
  }
  if (engine) {
    static constexpr std::array<std::string_view, 1> kEngines = {"sqlite"};
    if (!ctx.one_of(*engine, fields.path("engine"), kEngines)) return std::nullopt;
    if (const auto* p = fields.optional("pragmas"))
      e.pragmas = strings(ctx, *p, fields.path("pragmas"));
    if (const auto* o = fields.optional("optimizer")) {
      static constexpr std::array<std::string_view, 2> kOnOff = {"on", "off"};
      if (auto v = ctx.one_of(*o, fields.path("optimizer"), kOnOff)) e.optimizer_off = *v == "off";
    }
  } else {
    e.kind = OracleEngineSpec::Kind::command;
    e.command = strings(ctx, *command, fields.path("command"));
    if (command->kind == yaml::Node::Kind::sequence && e.command.empty()) {
      ctx.error(*command, fields.path("command"), "the command is empty");
    }
    for (const char* key : {"pragmas", "optimizer"}) {
      if (const auto* x = fields.optional(key)) {
        ctx.error(*x, fields.path(key), fmt::format("'{}' is for 'engine: sqlite' only", key));
      }
    }
  }
  if (const auto* t = fields.optional("timeout_ms")) {
    if (auto v = ctx.integer(*t, fields.path("timeout_ms"), 100, 3'600'000)) {
      e.timeout_ms = static_cast<std::uint32_t>(*v);
    }
  }
  return e;
}

void decode_ledger(Context& ctx, const yaml::Node& n, const std::string& path, OracleMatrix& m) {
  static constexpr std::array<std::string_view, 8> kKeys = {
      "journal", "variant",   "broken", "writers", "readers", "transactions_per_writer",
      "kills",   "timeout_ms"};
  Fields fields(ctx, n, path, kKeys);
  if (!fields.valid()) return;
  OracleLedgerSpec l;
  static constexpr std::array<std::string_view, 2> kJournals = {"wal", "rollback"};
  static constexpr std::array<std::string_view, 2> kVariants = {"keyed", "bank"};
  static constexpr std::array<std::string_view, 3> kBroken = {"none", "ledger-before-commit",
                                                              "savepoint-leak"};
  if (const auto* x = fields.optional("journal")) {
    if (auto v = ctx.one_of(*x, fields.path("journal"), kJournals)) l.journal = *v;
  }
  if (const auto* x = fields.optional("variant")) {
    if (auto v = ctx.one_of(*x, fields.path("variant"), kVariants)) l.variant = *v;
  }
  if (const auto* x = fields.optional("broken")) {
    if (auto v = ctx.one_of(*x, fields.path("broken"), kBroken)) l.broken = *v;
  }
  if (const auto* x = fields.optional("writers")) {
    if (auto v = ctx.integer(*x, fields.path("writers"), 1, 64)) l.writers = *v;
  }
  if (const auto* x = fields.optional("readers")) {
    if (auto v = ctx.integer(*x, fields.path("readers"), 0, 64)) l.readers = *v;
  }
  if (const auto* x = fields.optional("transactions_per_writer")) {
    if (auto v = ctx.integer(*x, fields.path("transactions_per_writer"), 1, 10'000'000)) {
      l.transactions_per_writer = *v;
    }
  }
  if (const auto* x = fields.optional("kills")) {
    if (auto v = ctx.integer(*x, fields.path("kills"), 0, 100'000)) l.kills = *v;
  }
  if (const auto* x = fields.optional("timeout_ms")) {
    if (auto v = ctx.integer(*x, fields.path("timeout_ms"), 1000, 3'600'000)) {
      l.timeout_ms = static_cast<std::uint32_t>(*v);
    }
  }
  m.ledgers.push_back(l);
}

// `journal_modes` and `synchronous` of `section` (faults, crash_states) into the two fields.
void decode_journaling(Context& ctx, Fields& fields, const std::string& section,
                       std::vector<std::string>& journal_modes, std::string& synchronous) {
  if (const auto* x = fields.optional("journal_modes")) {
    static constexpr std::array<std::string_view, 2> kJournals = {"wal", "rollback"};
    journal_modes.clear();
    if (ctx.is_sequence(*x, fields.path("journal_modes"))) {
      for (std::size_t i = 0; i < x->items.size(); ++i) {
        auto v =
            ctx.one_of(x->items[i], decode::index_path(section + ".journal_modes", i), kJournals);
        if (v) journal_modes.push_back(*v);
      }
      if (x->items.empty()) {
        ctx.error(*x, section + ".journal_modes", "name at least one journal mode");
      }
    }
  }
  if (const auto* x = fields.optional("synchronous")) {
    static constexpr std::array<std::string_view, 4> kSync = {"OFF", "NORMAL", "FULL", "EXTRA"};
    if (auto v = ctx.one_of(*x, fields.path("synchronous"), kSync)) synchronous = *v;
  }
}

void decode_faults(Context& ctx, const yaml::Node& n, OracleMatrix& m) {
  static constexpr std::array<std::string_view, 2> kKeys = {"journal_modes", "synchronous"};
  Fields fields(ctx, n, "faults", kKeys);
  if (!fields.valid()) return;
  OracleFaultSpec f;
  decode_journaling(ctx, fields, "faults", f.journal_modes, f.synchronous);
  m.faults = f;
}

void decode_crash_states(Context& ctx, const yaml::Node& n, OracleMatrix& m) {
  static constexpr std::array<std::string_view, 3> kKeys = {"journal_modes", "synchronous",
                                                            "transactions"};
  Fields fields(ctx, n, "crash_states", kKeys);
  if (!fields.valid()) return;
  OracleCrashStateSpec c;
  decode_journaling(ctx, fields, "crash_states", c.journal_modes, c.synchronous);
  if (const auto* x = fields.optional("transactions")) {
    if (auto v = ctx.integer(*x, "crash_states.transactions", 1, 100'000)) c.transactions = *v;
  }
  m.crash_states = c;
}

void decode_generator(Context& ctx, const yaml::Node& n, OracleMatrix& m) {
  static constexpr std::array<std::string_view, 2> kKeys = {"statements", "seed"};
  Fields g(ctx, n, "generator", kKeys);
  if (!g.valid()) return;
  OracleGeneratorSpec spec;
  spec.seed = m.seed;
  if (const auto* x = g.required("statements")) {
    // The stream is held in memory (some 200 bytes a statement): ten million at most.
    if (auto v = ctx.integer(*x, "generator.statements", 1, 10'000'000)) spec.statements = *v;
  }
  if (const auto* x = g.optional("seed")) {
    if (auto v = ctx.integer(*x, "generator.seed", 0, std::numeric_limits<std::uint64_t>::max())) {
      spec.seed = *v;
    }
  }
  m.generator = spec;
}

void decode_metamorphic(Context& ctx, const yaml::Node& n, OracleMatrix& m) {
  static constexpr std::array<std::string_view, 1> kKeys = {"cases"};
  Fields g(ctx, n, "metamorphic", kKeys);
  if (!g.valid()) return;
  if (const auto* x = g.required("cases")) {
    if (auto v = ctx.integer(*x, "metamorphic.cases", 1, 10'000'000)) m.metamorphic_cases = *v;
  }
}

void decode_plans(Context& ctx, const yaml::Node& n, OracleMatrix& m) {
  static constexpr std::array<std::string_view, 1> kKeys = {"queries"};
  Fields g(ctx, n, "plans", kKeys);
  if (!g.valid()) return;
  if (const auto* x = g.required("queries")) {
    if (auto v = ctx.integer(*x, "plans.queries", 1, 10'000'000)) m.plan_queries = *v;
  }
}

void decode_waive(Context& ctx, const yaml::Node& n, OracleMatrix& m) {
  m.waived = strings(ctx, n, "waive");
  for (std::size_t i = 0; i < m.waived.size(); ++i) {
    if (std::find(kWaivable.begin(), kWaivable.end(), m.waived[i]) == kWaivable.end()) {
      ctx.error(n.items[i], decode::index_path("waive", i),
                "'" + m.waived[i] +
                    "' is no capability a target may decline; waivable: prepared, column_names, "
                    "optimizations");
    }
  }
}

// Nothing checked is never a pass: a matrix must ask for something; and the corpus and the
// generator compare two engines.
void check_asks(Context& ctx, const yaml::Node& root, const OracleMatrix& m) {
  if (m.corpus.empty() && !m.generator && !m.metamorphic_cases && !m.plan_queries &&
      m.ledgers.empty() && !m.faults && !m.crash_states && ctx.error_count() == 0) {
    ctx.error(root, "",
              "the matrix checks nothing: give at least one of corpus, generator, metamorphic, "
              "plans, ledgers, faults or crash_states");
  }
  for (const char* key : {"corpus", "generator"}) {
    const auto* n = root.find(key);
    if (n && !root.find("oracle")) {
      ctx.error(*n, key,
                fmt::format("'{}' compares the target with an oracle engine: add 'oracle:' (for "
                            "example 'oracle: {{engine: sqlite}}')",
                            key));
    }
  }
}

void decode_oracle_matrix(Context& ctx, const yaml::Node& root, OracleMatrix& m) {
  Fields fields(ctx, root, "", kOracleKeys);
  if (!fields.valid()) return;
  if (const auto* n = fields.required("version")) ctx.integer(*n, "version", 1, 1);
  if (const auto* n = fields.required("name")) {
    if (auto v = ctx.identifier(*n, "name")) m.name = *v;
  }
  if (const auto* n = fields.optional("description")) {
    if (auto v = ctx.string(*n, "description")) m.description = *v;
  }
  if (const auto* n = fields.required("seed")) {
    if (auto v = ctx.integer(*n, "seed", 0, std::numeric_limits<std::uint64_t>::max())) m.seed = *v;
  }
  if (const auto* n = fields.required("target")) {
    if (auto e = decode_engine(ctx, *n, "target")) m.target = *e;
  }
  if (const auto* n = fields.optional("oracle")) m.oracle = decode_engine(ctx, *n, "oracle");
  if (const auto* n = fields.optional("corpus")) {
    m.corpus = strings(ctx, *n, "corpus");
    if (n->kind == yaml::Node::Kind::sequence && n->items.empty()) {
      ctx.error(*n, "corpus", "name at least one corpus file or directory");
    }
  }
  if (const auto* n = fields.optional("corpus_seeds")) {
    if (auto v = ctx.integer(*n, "corpus_seeds", 0, 1000)) m.corpus_seeds = *v;
    if (!root.find("corpus")) ctx.error(*n, "corpus_seeds", "'corpus_seeds' needs 'corpus'");
  }
  if (const auto* n = fields.optional("generator")) decode_generator(ctx, *n, m);
  if (const auto* n = fields.optional("metamorphic")) decode_metamorphic(ctx, *n, m);
  if (const auto* n = fields.optional("plans")) decode_plans(ctx, *n, m);
  if (const auto* n = fields.optional("ledgers")) {
    if (ctx.is_sequence(*n, "ledgers")) {
      for (std::size_t i = 0; i < n->items.size(); ++i) {
        decode_ledger(ctx, n->items[i], decode::index_path("ledgers", i), m);
      }
    }
  }
  if (const auto* n = fields.optional("faults")) decode_faults(ctx, *n, m);
  if (const auto* n = fields.optional("crash_states")) decode_crash_states(ctx, *n, m);
  if (const auto* n = fields.optional("deadline_s")) {
    if (auto v = ctx.integer(*n, "deadline_s", 1, 10'000'000)) m.deadline_s = *v;
  }
  if (const auto* n = fields.optional("waive")) decode_waive(ctx, *n, m);
  check_asks(ctx, root, m);
}

}  // namespace

LoadedOracleMatrix parse_oracle_matrix(std::string_view text, const std::string& file) {
  LoadedOracleMatrix out;
  yaml::Tree tree;
  if (!decode::load_matrix_tree(text, file, tree, out.diagnostics)) return out;
  OracleMatrix m;
  m.file = file;
  m.sha256 = sha256_hex(text);
  m.source_text = std::string(text);
  Context ctx(file, out.diagnostics);
  decode_oracle_matrix(ctx, tree.root, m);
  if (out.diagnostics.empty()) out.matrix = std::move(m);
  return out;
}

LoadedOracleMatrix load_oracle_matrix_file(const std::string& path) {
  std::string text;
  if (auto bad = read_matrix_text(path, text)) {
    LoadedOracleMatrix out;
    out.diagnostics.push_back(std::move(*bad));
    return out;
  }
  return parse_oracle_matrix(text, path);
}

}  // namespace jbench
