// Running a tool (bpftrace, strace, dtrace, `tool --version`) to completion with a deadline and
// keeping what it printed: the one way jbench asks a tool a question and waits for the answer.
// It spawns through ChildProcess (child_process.h), so the guarantees are the same ones:
//
// - No shell: argv[0] must be an absolute path and is executed as is.
// - stdin is /dev/null; the child leads its own process group and gets PR_SET_PDEATHSIG(SIGKILL);
//   no descriptor of ours but 0-2 reaches it; SIGPIPE is at its default in it.
// - Past the deadline the whole group is killed with SIGKILL; the child is always reaped, and
//   whatever it left in its group is killed, before run_to_completion returns.
// - At most `max_output` bytes of each of stdout and stderr are kept; the rest is read and
//   dropped, so the child never blocks on a full pipe.
//
//   const ToolRun run = run_to_completion({"/usr/bin/strace", "-V"}, std::nullopt, 5000);
//   if (run.started && !run.timed_out && run.exit_code == 0) parse(run.out);
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace jbench::proc {

struct ToolRun {
  bool started = false;  // false: it could not be started, `error` says why
  std::string error;
  int exit_code = -1;  // when started && !signaled
  bool signaled = false;
  int signal = 0;
  bool timed_out = false;  // killed at the deadline
  std::string out;
  std::string err;
};

// `path_env` becomes the child's PATH; nullopt leaves the harness's PATH (the rest of the
// environment is inherited either way). `working_dir`: where it runs; empty, the harness's.
ToolRun run_to_completion(const std::vector<std::string>& argv,
                          const std::optional<std::string>& path_env, int timeout_ms,
                          std::size_t max_output = 16 * 1024, const std::string& working_dir = {});

}  // namespace jbench::proc
