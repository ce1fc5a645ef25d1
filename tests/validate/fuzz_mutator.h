// Seeded mutations of one document for the fuzz tests: a JSON value's member removed or renamed,
// a value's type or number changed, the text truncated or a garbage line inserted. Every choice
// comes from the SplitMix64 the caller seeds, so a seed names one mutation exactly.
//
//   SplitMix64 rng(combine64(seed, iteration));
//   auto m = mutate_json(doc, FuzzOp::rename_key, rng);   // nullopt: nothing to apply it to
//   if (m) { write(m->text); ... m->where ... }
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "jbench/common/random.h"

namespace jbench::test {

enum class FuzzOp { remove_field, rename_key, change_type, change_number, truncate, garbage_line };
inline constexpr FuzzOp kFuzzOps[] = {FuzzOp::remove_field, FuzzOp::rename_key,
                                      FuzzOp::change_type,  FuzzOp::change_number,
                                      FuzzOp::truncate,     FuzzOp::garbage_line};
const char* op_name(FuzzOp op);

// A fuzz test's size from the environment (e.g. JBENCH_FUZZ_CASES), or `fallback`.
std::uint64_t env_or(const char* name, std::uint64_t fallback);

struct JsonMutation {
  nlohmann::json doc;  // the mutated document
  std::string where;   // JSON pointer of the value (or member) changed
};

// One structural or value mutation of `doc` (remove_field, rename_key, change_type,
// change_number), at a member or value drawn uniformly; nullopt when `doc` has none that fits
// (no object member, no number). A number is changed by at least half of itself and at least 1,
// in its own representation (a decimal string stays a decimal string).
std::optional<JsonMutation> mutate_json(const nlohmann::json& doc, FuzzOp op, SplitMix64& rng);

// truncate: a strict prefix, cut before the last byte that is not whitespace (so a JSON text
// always loses its closing bracket). garbage_line: a line that is no JSON and no YAML mapping
// inserted at a line boundary.
std::string mutate_text(const std::string& text, FuzzOp op, SplitMix64& rng);

}  // namespace jbench::test
