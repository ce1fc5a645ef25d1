// The edits the mutation catalogue (mutations.cpp, mutations_transcript.cpp) is made of. Each
// returns an edit of a copy of the valid bundle that rewrites SHA256SUMS afterwards.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bundle_editor.h"
#include "mutations.h"

namespace jbench::test {

using Json = nlohmann::json;

// "runs/<run>/<name>".
std::string run_file(const std::string& run, const std::string& name);

// Edits one JSON document in place.
std::function<void(const BundleEditor&)> edit(std::string file, std::function<void(Json&)> f);

// Edits a run's raw worker-0 result and the result message its transcript holds (the runner
// writes both from the one message), and recomputes the run's summary.
std::function<void(const BundleEditor&)> edit_raw(std::string run, std::function<void(Json&)> f);

// A nanosecond decimal string as a number.
std::uint64_t ns(const Json& v);

// The mutations of the protocol transcript (mutations_transcript.cpp).
std::vector<Mutation> transcript_mutations();

}  // namespace jbench::test
