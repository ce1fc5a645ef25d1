// Oracle matrices decoded strictly: a complete one keeps every value; each mistake is one
// located diagnostic with its key path; a matrix that checks nothing is refused.
#include "jbench/matrix/oracle_matrix.h"

#include <gtest/gtest.h>

namespace jbench {
namespace {

std::string errors(std::string_view text) {
  LoadedOracleMatrix m = parse_oracle_matrix(text, "m.yaml");
  EXPECT_FALSE(m.matrix);
  return format_diagnostics(m.diagnostics);
}

TEST(OracleMatrix, a_complete_matrix_keeps_every_value) {
  LoadedOracleMatrix m = parse_oracle_matrix(
      "version: 1\nname: o\nseed: 9\n"
      "target: {command: [bin/engine, --x], timeout_ms: 500}\n"
      "oracle: {engine: sqlite, optimizer: \"off\", pragmas: [cache_size=10]}\n"
      "corpus: [a.test, dir]\ngenerator: {statements: 50}\nmetamorphic: {cases: 4}\n"
      "plans: {queries: 6}\nwaive: [optimizations]\n"
      "crash_states: {journal_modes: [rollback], transactions: 40}\n"
      "ledgers:\n  - {journal: rollback, variant: bank, writers: 2, kills: 3}\n"
      "faults: {journal_modes: [wal], synchronous: NORMAL}\n",
      "m.yaml");
  ASSERT_TRUE(m.matrix) << format_diagnostics(m.diagnostics);
  const OracleMatrix& o = *m.matrix;
  EXPECT_EQ(o.target.kind, OracleEngineSpec::Kind::command);
  EXPECT_EQ(o.target.command, (std::vector<std::string>{"bin/engine", "--x"}));
  EXPECT_EQ(o.target.timeout_ms, 500u);
  ASSERT_TRUE(o.oracle);
  EXPECT_TRUE(o.oracle->optimizer_off);
  EXPECT_EQ(o.oracle->pragmas, std::vector<std::string>{"cache_size=10"});
  EXPECT_EQ(o.corpus.size(), 2u);
  EXPECT_EQ(o.generator->statements, 50u);
  EXPECT_EQ(o.generator->seed, 9u);  // the matrix's seed by default
  EXPECT_EQ(*o.metamorphic_cases, 4u);
  EXPECT_EQ(*o.plan_queries, 6u);
  ASSERT_TRUE(o.crash_states);
  EXPECT_EQ(o.crash_states->journal_modes, std::vector<std::string>{"rollback"});
  EXPECT_EQ(o.crash_states->transactions, 40u);
  EXPECT_EQ(o.crash_states->synchronous, "FULL");
  EXPECT_EQ(o.waived, std::vector<std::string>{"optimizations"});
  ASSERT_EQ(o.ledgers.size(), 1u);
  EXPECT_EQ(o.ledgers[0].journal, "rollback");
  EXPECT_EQ(o.ledgers[0].kills, 3u);
  EXPECT_EQ(o.ledgers[0].readers, 1u);  // default
  EXPECT_EQ(o.faults->synchronous, "NORMAL");
  EXPECT_EQ(o.sha256.size(), 64u);
}

TEST(OracleMatrix, each_mistake_is_located) {
  const std::string head = "version: 1\nname: o\nseed: 1\n";
  EXPECT_NE(errors(head + "target: {engine: postgres}\nmetamorphic: {cases: 1}\n")
                .find("m.yaml:4:18: error: target.engine"),
            std::string::npos);
  EXPECT_NE(errors(head + "target: {engine: sqlite, command: [x]}\nmetamorphic: {cases: 1}\n")
                .find("not both or neither"),
            std::string::npos);
  EXPECT_NE(errors(head + "target: {engine: sqlite}\ncorpus: [x.test]\n").find("add 'oracle:'"),
            std::string::npos);
  EXPECT_NE(errors(head + "target: {engine: sqlite}\nledgers: [{journal: wall}]\n")
                .find("m.yaml:5:21: error: ledgers[0].journal"),
            std::string::npos);
  EXPECT_NE(errors(head + "target: {engine: sqlite}\nfaults: {synchronous: SOMETIMES}\n")
                .find("faults.synchronous"),
            std::string::npos);
  EXPECT_NE(errors(head + "target: {command: [x], optimizer: \"off\"}\nmetamorphic: {cases: 1}\n")
                .find("for 'engine: sqlite' only"),
            std::string::npos);
  EXPECT_NE(errors(head + "target: {engine: sqlite}\n").find("checks nothing"), std::string::npos);
  EXPECT_NE(errors(head + "target: {engine: sqlite}\ngenerator: {statements: 0}\n"
                          "oracle: {engine: sqlite}\n")
                .find("generator.statements"),
            std::string::npos);
  EXPECT_NE(errors(head + "target: {engine: sqlite}\nplans: {queries: 0}\n")
                .find("m.yaml:5:18: error: plans.queries"),
            std::string::npos);
  EXPECT_NE(errors(head + "target: {engine: sqlite}\nplans: {querys: 3}\n").find("queries"),
            std::string::npos);
  EXPECT_NE(errors(head + "target: {engine: sqlite}\ncrash_states: {journal_modes: [wall]}\n")
                .find("crash_states.journal_modes[0]"),
            std::string::npos);
  EXPECT_NE(errors("version: 2\nname: o\nseed: 1\ntarget: {engine: sqlite}\n"
                   "metamorphic: {cases: 1}\n")
                .find("m.yaml:1:10"),
            std::string::npos);
}

}  // namespace
}  // namespace jbench
