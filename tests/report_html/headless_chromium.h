// Headless Chromium for tests: open a local page and get its DOM or a screenshot.
//
// Each call is one browser launch through jbench::proc::run_to_completion, so it is bounded by
// a deadline, leads its own process group (killed whole, zygote and renderers included, when
// the browser exits or the deadline passes) and dies with the test (PR_SET_PDEATHSIG). Every
// launch gets a fresh profile (--user-data-dir) under the caller's temp dir; after it, any
// process still naming that profile is reported and killed, so a test can assert none was left.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace jbench::test {

// The browser to use: $JBENCH_CHROMIUM if set, else Debian's /usr/bin/chromium; nullopt when
// there is none (ci/install-deps.sh installs it).
std::optional<std::string> find_chromium();

struct BrowserRun {
  bool ok = false;     // started, exited 0 in time
  std::string what;    // when !ok: why (for the assertion message)
  std::string out;     // stdout: the DOM for --dump-dom
  std::string err;     // stderr: Chromium's log, console messages included
  int leftovers = 0;   // processes still using the profile afterwards (killed by us)
  double seconds = 0;  // wall time of the launch
};

// Runs `chromium --headless=new … <extra> file://<page>` with a fresh profile in `scratch_dir`.
BrowserRun run_headless(const std::string& chromium, const std::string& page,
                        const std::vector<std::string>& extra, const std::string& scratch_dir,
                        int timeout_ms = 45'000);

// The console messages in Chromium's log (--enable-logging=stderr): lines tagged CONSOLE.
// Chromium 156 logs every console level (log, warn, error) and every uncaught exception or
// policy violation at INFO, so the level cannot be told from the line: the page under test
// writes nothing to the console, and any such line is a failure.
std::vector<std::string> console_lines(const std::string& log);

}  // namespace jbench::test
