// Runs a program to completion for a test, with a deadline, capturing stdout and stderr.
//
// Guarantees: the child gets PR_SET_PDEATHSIG(SIGKILL) so it cannot outlive the test; past the
// deadline it is killed with SIGKILL and reaped; it is always reaped before run_process returns.
// The deadline is a safety net, never a measurement: it is multiplied by the suite-wide factor
// JBENCH_TEST_TIME_SCALE (default 1) for slow or loaded machines.
//
//   auto r = run_process({"/path/jbench", "plan", "x.yaml"}, {.cwd = dir});
//   EXPECT_EQ(r.exit_code, 2);
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace jbench::test {

struct ProcessOptions {
  std::string cwd;  // empty: inherit
  std::chrono::milliseconds timeout{30'000};
  std::string stdin_text = {};                                // written, then stdin is closed
  std::vector<std::pair<std::string, std::string>> env = {};  // set in the child, over ours
  // Sends `signal` to the child the first time `signal_when` appears in what it wrote to stdout
  // or stderr: at a point the program announces (a progress line, a phase), never after a delay.
  // For tests of how a program handles Ctrl-C or SIGTERM. Empty, or signal 0: never.
  std::string signal_when = {};
  int signal = 0;
};

struct ProcessResult {
  int exit_code = -1;  // valid when !signaled
  bool signaled = false;
  int signal = 0;
  bool timed_out = false;    // killed because the deadline passed
  bool signal_sent = false;  // `signal_when` appeared and the signal was sent
  std::string out;
  std::string err;
};

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// `d` times JBENCH_TEST_TIME_SCALE (a positive number; default 1): every safety-net deadline of
// the suite passes through it.
std::chrono::milliseconds scaled_deadline(std::chrono::milliseconds d);

}  // namespace jbench::test
