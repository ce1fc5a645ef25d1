// The query corpus: checked-in text files of statements and queries with SQLite's expected
// results, in the format of docs/oracle-corpus.md (sqllogictest-like, values as SQL literals).
//
//   ParsedCorpus p = parse_corpus(text, "oracle/corpus/scalar_subqueries.test");
//   if (p.error) std::cerr << format_diagnostic(*p.error);   // "...test:12:7: error: ..."
//   for (const Record& r : p.corpus->records) ...
//
// Parsing is pure; read_corpus_file() adds only the file read. The first syntax error stops the
// parse: a corpus is refused whole, never run in part.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/diagnostic.h"
#include "jbench/oracle/limit_ties.h"
#include "jbench/oracle/normalize.h"
#include "jbench/oracle/result_set.h"

namespace jbench::oracle {

enum class RecordKind { statement_ok, statement_error, query };

// Where engines are allowed to differ on a record, and how: `engine` names the engine
// ("sqlite", "postgres", "standard"), `rule` says what it does in words. The expected result
// is always SQLite's; the rules tell a later comparison which other answer is legitimate.
struct EngineRule {
  std::string engine;
  std::string rule;
};

struct Record {
  RecordKind kind = RecordKind::statement_ok;
  SourceLocation where;  // the record's first line
  std::string sql;       // its lines joined by '\n', without a trailing newline
  std::vector<Value> params;
  // `prepared: <name>`: the record runs as that prepared statement — prepared at its first use,
  // reset and re-bound at every later one (Target::run_prepared) — instead of afresh.
  std::string prepared;
  std::vector<EngineRule> engine_rules;
  // What kind of statement it is, for the run's coverage table: a generated query's template
  // name; empty for the rest, which are counted by their first keyword (shape_of, runner.h).
  std::string shape;
  // False for generated statements: their outcome (ok or an error) is compared between the
  // engines but not held against the header. Corpus files always expect theirs.
  bool outcome_expected = true;
  // Queries only.
  std::string column_types;  // one letter per column: I integer, R real, T text, B blob, A any
  RowOrder order = RowOrder::multiset;
  std::vector<std::size_t> order_key;  // 0-based; the file writes 1-based column numbers
  bool limit_ties = false;
  // With limit_ties: the statement without its trailing LIMIT (limit_ties.h), which the oracle
  // also runs to check that the target's last tie group holds rows that exist.
  std::optional<UnlimitedQuery> unlimited;
  bool has_expected = false;  // a "----" section was given (possibly with zero rows)
  std::vector<Row> expected;
};

struct Corpus {
  std::string file;
  std::vector<Record> records;
};

// Either a corpus or the first syntax error, located at its line and column.
struct ParsedCorpus {
  std::optional<Corpus> corpus;
  std::optional<Diagnostic> error;
};

ParsedCorpus parse_corpus(std::string_view text, const std::string& file);
// The file's contents parsed; a file that cannot be read is an error naming it (line 0).
ParsedCorpus read_corpus_file(const std::string& path);

// One SQL literal (NULL, 42, -1.5e3, 'it''s', x'00ff') at the start of `text`, for params and
// expected rows. On success `consumed` is its length; on failure `error` says why and
// `consumed` is the offset of the offending character.
struct LiteralParse {
  std::optional<Value> value;
  std::size_t consumed = 0;
  std::string error;
};
LiteralParse parse_literal(std::string_view text);

// How a query record's result is compared: its order, key and ties from the header; no column
// names (the corpus has none); everything else the Normalization defaults.
Normalization normalization_of(const Record& query);
// The expected result of a query record as a ResultSet without column names.
ResultSet expected_of(const Record& query);

}  // namespace jbench::oracle
