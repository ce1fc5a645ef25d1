// A corpus file instantiated per seed: every table, index, view and column it creates renamed,
// the same way in every record, to names drawn from the seed — the same statements with the same
// results under names no engine can know in advance. Expected rows do not change (they hold
// values, not names); strings, comments and every name the file does not create (functions,
// tables it only expects to be missing) are left as they are.
//
//   Corpus c = instantiate_corpus(parsed, 7);   // "t" -> "t_qxkv" throughout; file "x.seed-7.test"
//
// Pure.
#pragma once

#include <cstdint>

#include "jbench/oracle/corpus.h"

namespace jbench::oracle {

Corpus instantiate_corpus(const Corpus& corpus, std::uint64_t seed);

}  // namespace jbench::oracle
