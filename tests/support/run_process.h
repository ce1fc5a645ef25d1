// Runs a program to completion for a test, with a deadline, capturing stdout and stderr.
//
// Guarantees: the child gets PR_SET_PDEATHSIG(SIGKILL) so it cannot outlive the test; past the
// deadline it is killed with SIGKILL and reaped; it is always reaped before run_process returns.
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
  std::string stdin_text;                                // written, then stdin is closed
  std::vector<std::pair<std::string, std::string>> env;  // set in the child, on top of ours
  // Sends `signal` to the child once `signal_after` has passed (0: never). For tests of how a
  // program handles Ctrl-C or SIGTERM.
  std::chrono::milliseconds signal_after{0};
  int signal = 0;
};

struct ProcessResult {
  int exit_code = -1;  // valid when !signaled
  bool signaled = false;
  int signal = 0;
  bool timed_out = false;  // killed because the deadline passed
  std::string out;
  std::string err;
};

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

}  // namespace jbench::test
