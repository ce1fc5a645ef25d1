// One worker of a run as the runner sees it: its process, the messages it sent that were not yet
// consumed, and a transcript of every line in both directions. Private to jbench::run.
#pragma once

#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/proc/interrupt.h"
#include "world.h"

namespace jbench::run {

// Every protocol line, in order, with the harness's clock: the raw evidence of what was said.
class Transcript {
 public:
  explicit Transcript(Clock& clock) : clock_(&clock) {}
  void record(std::size_t worker, std::string_view direction, std::string_view line);
  const std::string& text() const { return text_; }  // JSON lines
  std::uint64_t bytes() const { return text_.size(); }

 private:
  Clock* clock_;
  std::string text_;
};

struct WorkerLink {
  std::size_t index = 0;
  std::unique_ptr<WorkerProcess> process;
  std::deque<nlohmann::json> inbox;
  bool eof = false;
};

// How a wait for the cohort ended.
enum class WaitResult { ok, failed, timeout, interrupted, overflow };

struct WaitFailure {
  WaitResult result = WaitResult::ok;
  std::size_t worker = 0;  // which worker, for `failed`
  std::string reason;
};

struct PumpLimits {
  std::uint64_t deadline_ns = 0;       // CLOCK_MONOTONIC
  std::uint64_t max_output_bytes = 0;  // the workers' stdout and stderr files, summed
  std::vector<std::string> stderr_paths;
};

// Bytes the workers wrote so far: their stdout (read by the harness) and their stderr files.
std::uint64_t output_bytes(const std::vector<WorkerLink>& workers, const PumpLimits& limits);

// Sends `message` to every worker, recording it. False (with `failure`) if one cannot take it.
bool send_all(std::vector<WorkerLink>& workers, const nlohmann::json& message,
              Transcript& transcript, Clock& clock, WaitFailure& failure);
bool send_one(WorkerLink& worker, const nlohmann::json& message, Transcript& transcript,
              Clock& clock, WaitFailure& failure);

// Waits until every worker has sent a message of type `type`, which is taken from its inbox into
// `got` (indexed like `workers`). Any other message type, an "error" message, malformed JSON,
// a worker that closes its stdout or exits, the deadline, the output bound or an interrupt ends
// the wait with the reason.
WaitFailure await_all(std::vector<WorkerLink>& workers, std::string_view type,
                      const PumpLimits& limits, const proc::InterruptWatch& interrupt,
                      Transcript& transcript, Clock& clock, std::vector<nlohmann::json>& got);

std::string_view wait_result_name(WaitResult r);

}  // namespace jbench::run
