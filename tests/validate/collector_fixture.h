// A collector with a raw event file, added to a run of the valid fixture: the honest version
// validates; each mutation of the catalogue then tells one lie about it (docs/events.md).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bundle_editor.h"

namespace jbench::test {

struct CollectorTweak {
  // The raw file's lines (header, five records — a canary, two nested spans — and trailer).
  std::function<void(std::vector<nlohmann::json>& lines)> raw;
  // The collector's entry in run.json's trace_mode.collectors.
  std::function<void(nlohmann::json& collector)> entry;
};

// Adds collector "spans" with raw/spans.events.jsonl to `run`, applies `tweak`, rewrites
// SHA256SUMS.
void add_spans_collector(const BundleEditor& e, const std::string& run,
                         const CollectorTweak& tweak = {});

// The spans collector's raw file replaced by its compressed copy, as a run keeps the files it
// has read (raw/spans.events.jsonl.zst, named so in run.json); rewrites SHA256SUMS. Gives the
// kept file's path inside the bundle.
std::string keep_spans_compressed(const BundleEditor& e, const std::string& run);

}  // namespace jbench::test
