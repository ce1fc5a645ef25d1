// The seeded statement generator: a stream of statements over the SQLite workload's schema
// (groups, items: workloads/sqlite/src/dataset.cpp; items with a nullable text column `note`
// beside the workload's own, for NULLs ordered, counted and matched) that exercises what a result
// cache must survive — scalar subqueries correlated and uncorrelated, returning zero, one and
// several rows (several only under an ORDER BY on a unique key, so "the first row" is one row on
// every plan), nested and recursive CTEs, random(), changes(), the oracle's functions, errors,
// prepared statements re-executed with new parameters, and writes to the tables they read, inside
// transactions and savepoints that commit or roll back — and, for a third of the queries,
// SELECTs composed from parts with literals and aliases drawn from the seed (composer.h), so
// that no fixed list of statements covers a stream.
//
//   Corpus stream = generate_stream({.seed = 7, .statements = 100000});
//   RunReport r = run_corpus(stream, target, oracle);   // records are "generated:seed=7:<n>"
//
// Every query is written so that engines that are both right must agree: no LIMIT without an
// ORDER BY that fixes the rows (ties are declared with limit-ties), no real sums whose rounding
// depends on the order of the rows, jbench_seq() only where the number of calls is fixed.
// Pure: the same options give the same stream, byte for byte, on every platform (random.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "jbench/oracle/corpus.h"
#include "jbench/oracle/plans.h"
#include "jbench/oracle/tlp.h"

namespace jbench::oracle {

struct GeneratorOptions {
  std::uint64_t seed = 1;
  std::size_t statements = 1000;  // records after the schema and its first rows
  std::size_t groups = 8;         // rows of `groups`; item grp values stay in 1..groups+2
  std::size_t items = 64;         // rows of `items` at the start
};

// The schema and its first rows, then `statements` seeded records. Records carry no expected
// rows: a generated stream is compared between two engines, not with a corpus.
Corpus generate_stream(const GeneratorOptions& options);

// The file name the stream's records are located in: "generated:seed=<seed>".
std::string generated_file_name(std::uint64_t seed);

// Seeded composed queries (the generator's composed_* shapes, generator.cpp) for the query-plan
// oracle (plans.h), each with the normalization its answers compare under.
std::vector<PlanQuery> generate_plan_queries(std::uint64_t seed, std::size_t count);

// Seeded single-table and join cases for the metamorphic checks (TLP, NoREC) over the same
// schema: predicates with NULLs (through outer joins and empty subqueries), parameters and
// scalar subqueries.
std::vector<TlpCase> generate_predicate_cases(std::uint64_t seed, std::size_t count);

}  // namespace jbench::oracle
