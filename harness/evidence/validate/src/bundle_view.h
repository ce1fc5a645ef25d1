// What the checks share: the bundle's documents, each read and parsed once, and the list the
// checks append their findings to. Private to jbench::validate.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/validate/validate.h"

namespace jbench::validate {

using Json = nlohmann::json;

class Findings {
 public:
  explicit Findings(std::vector<Finding>& out) : out_(out) {}
  void add(std::string code, std::string file, std::string pointer, std::string message) {
    out_.push_back({std::move(code), std::move(file), std::move(pointer), std::move(message)});
  }

 private:
  std::vector<Finding>& out_;
};

// One runs/<id>/ directory. A document that is missing or not JSON is nullopt (and was already
// reported by the loader), so checks that need it skip that run rather than guess.
struct RunView {
  std::string id;   // the directory's name
  std::string dir;  // "runs/<id>"
  std::optional<Json> run;
  std::optional<Json> summary;
  // raw/worker-<i>.result.json in worker order; nullopt when one of them could not be used.
  std::optional<std::vector<Json>> results;
};

struct BundleView {
  std::string root;
  std::optional<Json> manifest;
  std::optional<Json> plan;
  std::optional<Json> validation;
  std::optional<Json> provenance_index;  // provenance/index.json
  std::vector<RunView> runs;             // sorted by directory name
};

// `check` on every run, on a few threads (the runs are independent and their raw files are most
// of a bundle's bytes). Each run's findings are kept apart and added in the runs' order, so the
// report does not depend on the scheduling; an exception a check threw is thrown again here,
// the first run's first.
void for_each_run(const BundleView& bundle, Findings& findings,
                  const std::function<void(const RunView&, Findings&)>& check);

// Reads every document the checks need, reporting document.* findings for those that cannot
// be used and schema.* findings for those that break their schema.
// `staged`: the bundle is still being written (no validation.json yet).
BundleView load_bundle(const std::string& root, bool staged, Findings& findings);

// One document read and held to manifests/<kind>.schema.json (document.* and schema.<kind>
// findings); nullopt when it could not be read or parsed.
std::optional<Json> load_schema_checked(const std::string& root, const std::string& file,
                                        const std::string& kind, Findings& findings);

// One JSON document read and parsed, with no schema (document.* findings).
std::optional<Json> load_plain_json(const std::string& root, const std::string& file,
                                    Findings& findings);

// A document's bytes, with the same refusals as every document (document.missing, .too_large,
// .unreadable); nullopt when one was reported.
std::optional<std::string> read_document(const std::string& root, const std::string& file,
                                         Findings& findings);

// "raw/<name>" inside the run's directory: relative, without "." or "..".
bool safe_relative(const std::string& path);

// Defensive access to untrusted JSON: absent or of the wrong type is nullopt, never a throw.
const Json* member(const Json& object, std::string_view key);
std::optional<std::string> string_at(const Json& object, std::string_view key);
// A non-negative integer written as a JSON number or as a decimal string (64-bit values are
// strings in jbench's documents).
std::optional<std::uint64_t> u64_at(const Json& object, std::string_view key);

// One entry of a document's list of objects named by id (manifest.json's and plan.json's "runs",
// plan.json's "cells"): where it is and the object.
struct ListedEntry {
  std::size_t index = 0;
  std::string pointer;  // of the object: "/runs/3"
  const Json* object = nullptr;
};
// id -> the entry of `doc`'s array `list` that states it. An entry without an id is left out (the
// schema check reports it); of two with one id the first is kept, and the second reported as
// runs.duplicate_id of `file` when `findings` is given (the run lists' check, check_session).
std::map<std::string, ListedEntry> entries_by_id(const Json& doc, const std::string& file,
                                                 const char* list, Findings* findings);

}  // namespace jbench::validate
