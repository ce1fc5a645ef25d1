// Reading one JSON object of a bundle document into a type, field by field. A field of the wrong
// type is an error named by file and JSON pointer; the first one wins and the rest of the reading
// goes on harmlessly (defaults), so a document's reader is straight-line code checked once at
// its end. A field the type may lack is read through an optional_*; any other that is absent is
// an error too.
//
//   Fields f(run_json, "runs/r1/run.json");
//   doc.id = f.text("id");
//   doc.block = f.count("block");
//   doc.measure_start = f.optional_decimal("measure_start_ns");
//   for (Fields m : f.object("cohort").items("members")) doc.cohort.push_back(read_member(m));
//   if (!f.ok()) return f.error();   // "runs/r1/run.json /block: expected a non-negative
//                                    //  integer, found \"x\""
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"

namespace jbench::model {

// The pointers a reading looked at, arrays' indices written "*" ("/runs/*/trace"): what the
// schema test holds against the documents' JSON Schemas.
using FieldLog = std::set<std::string>;

// One key as a JSON pointer's next token: "/" and the key, its '~' and '/' escaped (RFC 6901).
std::string pointer_token(std::string_view key);

class Fields {
 public:
  // `log`, when given, collects every pointer read, through every child reader.
  Fields(const nlohmann::json& object, std::string file, FieldLog* log = nullptr);

  std::string text(std::string_view key);
  std::optional<std::string> optional_text(std::string_view key);  // absent or null: nullopt
  std::uint64_t count(std::string_view key);                       // a non-negative integer
  std::optional<std::uint64_t> optional_count(std::string_view key);
  std::int64_t integer(std::string_view key);
  std::optional<bool> optional_flag(std::string_view key);
  std::optional<double> optional_number(std::string_view key);
  // A 64-bit value written as a canonical decimal string (jbench/stats/decimal.h).
  std::uint64_t decimal(std::string_view key);
  std::optional<std::uint64_t> optional_decimal(std::string_view key);
  // A count or a time a collector's summary holds either way: a number, or a decimal string.
  std::optional<double> optional_quantity(std::string_view key);
  // A word of a closed set, parsed once: `parse` returns nullopt for a word not in it.
  template <typename Enum>
  Enum word(std::string_view key, std::optional<Enum> (*parse)(std::string_view), Enum fallback);
  // A string, or a list of strings (one file or several): the strings.
  std::vector<std::string> texts(std::string_view key);
  // An object member: absent is an error for object(), an empty reader's nullopt for
  // optional_object().
  Fields object(std::string_view key);
  std::optional<Fields> optional_object(std::string_view key);
  // An array of objects (an absent array: none, for optional_items).
  std::vector<Fields> items(std::string_view key);
  std::vector<Fields> optional_items(std::string_view key);
  // The members of an object of strings, in the document's order.
  std::vector<std::pair<std::string, std::string>> labels(std::string_view key);
  // The same for an object of scalars: a string as it is, a number or true/false as JSON writes
  // it (a matrix's `workers: 1` reads "1").
  std::vector<std::pair<std::string, std::string>> scalar_labels(std::string_view key);
  bool has(std::string_view key) const;
  // Whether the member is an object: for a field that is a value or an object saying why there is
  // none (a host's fact, {"unavailable": why}).
  bool holds_object(std::string_view key) const;
  // The object's member names, in the document's order.
  std::vector<std::string> names() const;

  bool ok() const { return !state_->error; }
  // Only when !ok(): the first wrong field, as an input error.
  const Error& error() const;

 private:
  struct State {
    std::string file;
    std::optional<Error> error;
    FieldLog* log = nullptr;
  };
  Fields(const nlohmann::json& object, std::shared_ptr<State> state, std::string pointer,
         std::string logged);
  // The member, or nullptr; records the read. `required`: absence is an error.
  const nlohmann::json* find(std::string_view key, bool required);
  void fail(std::string_view key, std::string_view expected, const nlohmann::json* found);
  void fail_at(const std::string& pointer, std::string_view expected, const nlohmann::json* found);
  std::vector<std::pair<std::string, std::string>> read_labels(std::string_view key, bool scalars);
  std::string at(std::string_view key) const;

  const nlohmann::json* object_;
  std::shared_ptr<State> state_;
  std::string pointer_;  // of this object within the document ("" for the document)
  std::string logged_;   // the same with arrays' indices as "*"
};

template <typename Enum>
Enum Fields::word(std::string_view key, std::optional<Enum> (*parse)(std::string_view),
                  Enum fallback) {
  const std::string t = text(key);
  if (!ok()) return fallback;
  if (const auto parsed = parse(t)) return *parsed;
  const nlohmann::json found = t;
  fail(key, "a known word", &found);
  return fallback;
}

}  // namespace jbench::model
