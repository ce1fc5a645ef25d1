// The facts a bundle states about one run in more than one document, held to agree: run.json
// against its entry in manifest.json, its entry in plan.json and the plan's cell, and the
// manifest's throughput against summary.json's. A reader takes each fact from one of them (the
// report pairs by the manifest's trace and throughput, the export by run.json's trace, the cells
// table reads the summary); one edited alone would have the run read as another run than it was.
#include <fmt/format.h>

#include <array>
#include <map>

#include "checks.h"

namespace jbench::validate {
namespace {

// The facts every run states in run.json, in manifest.json and in plan.json alike.
constexpr std::array<const char*, 5> kSharedFacts = {"trace", "seed", "block", "order", "implicit"};

// One document's statement of a run: where it is and the object that states it.
struct Statement {
  std::string file;
  std::string pointer;  // of the object; a fact's pointer is pointer + "/" + key
  const Json* object = nullptr;
};

// id -> each entry of `doc`'s array `list` as a statement of `file`; none without the document
// (its absence is reported where it is read).
std::map<std::string, Statement> statements_by_id(const std::optional<Json>& doc,
                                                  const std::string& file, const char* list) {
  std::map<std::string, Statement> out;
  if (!doc) return out;
  for (auto& [id, entry] : entries_by_id(*doc, file, list, nullptr)) {
    out.emplace(id, Statement{file, std::move(entry.pointer), entry.object});
  }
  return out;
}

void mismatch(const Statement& run, const Statement& other, const std::string& key,
              const std::string& said, const std::string& other_said, Findings& findings) {
  findings.add("runs.twin_mismatch", run.file, run.pointer + "/" + key,
               fmt::format("run.json says {} {}, {} {}/{} says {}: one of them was edited", key,
                           said, other.file, other.pointer, key, other_said));
}

// Each fact both state (a fact one of them lacks is the schema check's to report). In a merged
// bundle (`other` is the entry of a run a shard ran) run.json's block and order are its places
// in its shard's session, not in the merged plan: check_merge holds its bytes to its shard's.
void compare_facts(const Statement& run, const Statement& other, bool merged, Findings& findings) {
  for (const char* key : kSharedFacts) {
    if (merged && (std::string_view(key) == "block" || std::string_view(key) == "order")) continue;
    const Json* mine = member(*run.object, key);
    const Json* theirs = member(*other.object, key);
    if (mine && theirs && *mine != *theirs) {
      mismatch(run, other, key, mine->dump(), theirs->dump(), findings);
    }
  }
}

// A plan cell's values are typed as the matrix wrote them (workers: 1); a run's are labels
// ("1"): the same value either way.
std::string as_label(const Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// The run belongs to the plan entry's cell: its id (`id`, its directory's name: run.json's own
// id against it is check_session's) is the cell's and its repetition's, and its values are the
// cell's.
void compare_cell(const std::string& id, const Statement& run, const Statement& planned,
                  const std::map<std::string, Statement>& cells, Findings& findings) {
  const auto cell_id = string_at(*planned.object, "cell");
  const auto repetition = u64_at(*run.object, "repetition");
  if (!cell_id || !repetition) return;
  if (id != fmt::format("{}.r{}", *cell_id, *repetition)) {
    mismatch(run, planned, "repetition", fmt::format("{} of run {}", *repetition, id),
             fmt::format("cell {}", *cell_id), findings);
  }
  const auto cell = cells.find(*cell_id);
  const Json* values = member(*run.object, "values");
  if (cell == cells.end() || !values || !values->is_object()) return;
  const Json* cell_values = member(*cell->second.object, "values");
  if (!cell_values || !cell_values->is_object()) return;
  Json labels = Json::object();
  for (auto it = cell_values->begin(); it != cell_values->end(); ++it) {
    labels[it.key()] = as_label(it.value());
  }
  if (labels != *values) {
    findings.add("runs.twin_mismatch", run.file, run.pointer + "/values",
                 fmt::format("run.json says values {}, {} {}/values (cell {}) says {}: one of "
                             "them was edited",
                             values->dump(), cell->second.file, cell->second.pointer, *cell_id,
                             labels.dump()));
  }
}

// The manifest lists each run with its axis values, which run.json states too.
void compare_listed_values(const std::string& id, const Statement& run, const Statement& listed,
                           Findings& findings) {
  const Json* values = member(*listed.object, "values");
  const Json* run_values = member(*run.object, "values");
  if (values && run_values && *run_values != *values) {
    findings.add("runs.values_mismatch", listed.file, listed.pointer + "/values",
                 fmt::format("manifest.json lists run '{}' with values {}, its run.json says {}",
                             id, values->dump(), run_values->dump()));
  }
}

// The manifest lists each run that ran with its summary's throughput (0 where the summary has
// none); the summary is held to the raw records by check_summaries, the manifest to it here.
void compare_listed_throughput(const RunView& r, const Statement& listed, Findings& findings) {
  if (!r.summary) return;  // reported where it was read
  const Json* listed_value = member(*listed.object, "throughput_ops_per_s");
  if (!listed_value) return;  // the schema check reports it
  const Json* summary_value = member(*r.summary, "throughput_ops_per_s");
  const Json stated = summary_value && summary_value->is_number() ? *summary_value : Json(0.0);
  if (*listed_value != stated) {
    findings.add("runs.throughput_mismatch", listed.file, listed.pointer + "/throughput_ops_per_s",
                 fmt::format("manifest.json lists run '{}' at {} ops/s, its summary.json says {}: "
                             "one of them was edited",
                             r.id, listed_value->dump(), stated.dump()));
  }
}

}  // namespace

void check_twins(const BundleView& bundle, Findings& findings) {
  const auto listed = statements_by_id(bundle.manifest, "manifest.json", "runs");
  const auto planned = statements_by_id(bundle.plan, "plan.json", "runs");
  const auto cells = statements_by_id(bundle.plan, "plan.json", "cells");
  for (const auto& r : bundle.runs) {
    if (!r.run || !r.run->is_object()) continue;
    const Statement run{r.dir + "/run.json", "", &*r.run};
    const auto entry = listed.find(r.id);
    const bool merged = entry != listed.end() && member(*entry->second.object, "shard");
    if (entry != listed.end()) {
      compare_listed_values(r.id, run, entry->second, findings);
      compare_listed_throughput(r, entry->second, findings);
      compare_facts(run, entry->second, merged, findings);
    }
    if (const auto planned_entry = planned.find(r.id); planned_entry != planned.end()) {
      compare_facts(run, planned_entry->second, merged, findings);
      compare_cell(r.id, run, planned_entry->second, cells, findings);
    }
  }
}

}  // namespace jbench::validate
