// Internal: running a probe's tool (bpftrace, strace, dtrace) to completion with a deadline.
//
// Guarantees: no shell (execve of an absolute path); stdin is /dev/null; the child leads its own
// process group and gets PR_SET_PDEATHSIG(SIGKILL); no descriptor of ours but 0-2 reaches it;
// past the deadline the whole group is killed with SIGKILL; the child is always reaped, and
// whatever it left in its group is killed, before run_tool returns. At most `max_output` bytes of
// each stream are kept (the rest is read and dropped, so the child never blocks on a full pipe).
#pragma once

#include <string>
#include <vector>

namespace jbench::doctor {

struct ToolRun {
  bool started = false;  // false: fork or execve failed, `error` says why
  std::string error;
  int exit_code = -1;  // when started && !signaled
  bool signaled = false;
  int signal = 0;
  bool timed_out = false;  // killed at the deadline
  std::string out;
  std::string err;
};

// argv[0] must be an absolute path. `path_env` becomes the child's PATH (the rest of the
// environment is inherited).
ToolRun run_tool(const std::vector<std::string>& argv, const std::string& path_env, int timeout_ms,
                 std::size_t max_output = 16 * 1024);

}  // namespace jbench::doctor
