// The text view of a bundle's raw records (`--format jsonl`): every file the runs' collectors
// name in `raw`, in the manifest's run order and run.json's collector order, line for line as
// written — a file kept compressed is written as the text it holds. Each file starts with its
// own header line (collector, run_id), so the stream says where each part came from.
#pragma once

#include <cstdint>
#include <string>

#include "bundle_input.h"
#include "output_file.h"

namespace jbench::exports {

struct JsonlWritten {
  std::uint64_t lines = 0;
  std::string error;  // "<file>: <why>" when a file could not be read whole; empty on success
};

JsonlWritten write_raw_lines(const BundleInput& bundle, OutputFile& out);

}  // namespace jbench::exports
