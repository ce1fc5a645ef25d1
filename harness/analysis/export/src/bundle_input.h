// What an export reads from a bundle besides the raw records: its validity, its runs in the
// manifest's order, and for each run the cohort, the phase boundaries and where its raw files
// are (manifest.json, validation.json, runs/<id>/run.json; docs/bundle.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jbench/model/bundle_reader.h"

namespace jbench::exports {

using model::Incarnation;

struct RunInput {
  std::string id;
  std::string dir;  // <bundle>/runs/<id>
  std::vector<Incarnation> cohort;
  std::vector<std::pair<std::string, std::uint64_t>> boundaries;  // "measure_start", ns
  std::vector<std::string> bridge_files;                          // absolute paths
  std::optional<std::string> syscall_file;
  // Every collector's raw files (absolute paths), in run.json's order: the text view's input.
  std::vector<std::string> raw_files;
  // The collectors' entries' `records` (syscall; bridge: every record line of its files), when
  // given: what lets a one-pass export know no --max-events cut is needed (one_pass.h).
  std::optional<std::uint64_t> syscall_records;
  std::optional<std::uint64_t> bridge_records;
};

struct BundleInput {
  std::vector<RunInput> runs;
  std::string status;  // manifest.json's status: complete, interrupted, ...
  // Set by the export from jbench::bundle's judgement (judge_bundle), not by the reading.
  bool invalid = false;        // named `.invalid`, validation.json not valid, or SHA256SUMS broken
  std::string invalid_reason;  // why, when invalid
  std::string error;           // why the bundle cannot be read; empty on success
};

// Reads every run the manifest lists that ran (not `not_run`), or only `only_run`: an id the
// manifest does not list is an error that names the ids it does.
BundleInput read_bundle_input(const model::BundleReader& bundle,
                              const std::optional<std::string>& only_run);

}  // namespace jbench::exports
