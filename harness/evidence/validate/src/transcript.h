// A run's protocol transcript as the checks read it (logs/protocol.jsonl, one entry per line the
// harness sent or read). Private to jbench::validate.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bundle_view.h"

namespace jbench::validate {

struct TranscriptEntry {
  std::size_t line = 0;      // 1-based line of the transcript
  std::uint64_t t_ns = 0;    // when the harness sent or read it (CLOCK_MONOTONIC)
  std::size_t worker = 0;    // the worker's index
  bool from_worker = false;  // "in": worker to harness
  std::string text;          // the line as it crossed the pipe
  bool conforms = false;     // a message of the protocol, in the direction its type travels
  std::string type;          // the message's type, when it has one
  Json message;              // the message, when it conforms
};

// The run's boundaries by name, when those it has are in phase order; otherwise none, since no
// window can be trusted (boundaries.order reports that).
std::map<std::string, std::uint64_t> ordered_boundaries(const Json& run);

// What the transcript says of each worker against the run: the message sequence of the
// protocol, the identity each worker announced against the cohort, what the harness configured
// against the run's cell, the times run.json took from the messages, and each result against
// raw/worker-<i>.result.json; and each message of the session inside the phase it belongs to.
void check_transcript_against_run(const RunView& r, const std::string& file,
                                  const std::vector<TranscriptEntry>& entries, bool run_ok,
                                  Findings& findings);

}  // namespace jbench::validate
