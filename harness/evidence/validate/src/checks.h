// The checks of `jbench validate`, one function per rule family, each appending what it finds.
// The order here is the order they run and the order their findings are listed in.
#pragma once

#include "bundle_view.h"

namespace jbench::validate {

// The directory itself: a name ending in ".invalid", a validation.json that recorded failure,
// a manifest whose session never finished.
void check_bundle_marks(const BundleView& bundle, Findings& findings);
// SHA256SUMS against the files, through verify_sha256sums (codes "sums.*").
void check_sums(const BundleView& bundle, Findings& findings);
// manifest.json's runs against runs/ and plan.json; matrix.yaml against its recorded sha256.
void check_session(const BundleView& bundle, Findings& findings);
// manifest.json's /execution (axis states after execution) against its run list.
void check_execution(const BundleView& bundle, Findings& findings);
// What run.json states again in manifest.json, plan.json and the plan's cell, held to agree: its
// axis values as the manifest lists them ("runs.values_mismatch"); trace, seed, block, order,
// implicit, and the cell's id and values ("runs.twin_mismatch"); and the throughput the manifest
// lists against summary.json's ("runs.throughput_mismatch").
void check_twins(const BundleView& bundle, Findings& findings);
// Each run.json: phase boundaries, cohort attribution and identity, worker exits, collectors.
void check_runs(const BundleView& bundle, Findings& findings);
// The raw event files the collectors of each run name (docs/events.md).
void check_events(const BundleView& bundle, Findings& findings);
// Each counted run's instructions records against the callgrind outputs kept beside them
// (codes "counted.*").
void check_counted(const BundleView& bundle, Findings& findings);
// Each run's protocol transcript (logs/protocol.jsonl): its lines, their times, and what they say
// against run.json and raw/worker-<i>.result.json (codes "protocol.*").
void check_transcripts(const BundleView& bundle, Findings& findings);
// Each summary.json against the summary recomputed from raw/ and run.json, and lane labels
// against the operations the summary counts.
void check_summaries(const BundleView& bundle, Findings& findings);
// provenance/index.json against the store provenance/objects/: each stored object's bytes hash to
// its name, every reference resolves, what the cap left out is named, the cap holds, and the
// configuration hashes match matrix.yaml and plan.json.
void check_provenance(const BundleView& bundle, Findings& findings);

// A merged bundle's runs against the shards' own documents kept under shards/<K>/: their bytes
// against each shard's SHA256SUMS, their entries against its manifest (codes "merge.*").
void check_merge(const BundleView& bundle, Findings& findings);

// An oracle record (docs/oracle.md) under `prefix` ("" for a bundle of its own, "oracle/" in a
// performance bundle): its schema, its matrix's hash, and each section's status against its
// counts (codes "oracle.*"). Returns the document when it could be read.
std::optional<Json> check_oracle_record(const std::string& root, const std::string& prefix,
                                        Findings& findings);
// A performance bundle whose matrix has `oracle:` must hold a passing oracle/ record; what is
// missing or failing goes to `unproven`, what is broken in the record to `findings`.
void check_oracle_requirement(const BundleView& bundle, std::vector<Finding>& unproven,
                              Findings& findings);

// The evidence bundle of `jbench propose`: the record, the rule's hash recorded before the first
// run, every session and oracle bundle it holds, and the verdict re-derived (codes "proposal.*").
void check_proposal(const std::string& root, Findings& findings);

}  // namespace jbench::validate
