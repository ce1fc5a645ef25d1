#include "headless_chromium.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "jbench/proc/run_tool.h"

namespace jbench::test {
namespace {

// The pids of the processes whose command line contains `needle` (the profile's path).
std::vector<pid_t> processes_naming(const std::string& needle) {
  std::vector<pid_t> pids;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return pids;
  while (const dirent* e = readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (*end != '\0' || pid <= 0 || pid == getpid()) continue;
    std::ifstream in("/proc/" + std::string(e->d_name) + "/cmdline", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (ss.str().find(needle) != std::string::npos) pids.push_back(static_cast<pid_t>(pid));
  }
  closedir(proc);
  return pids;
}

int profile_counter = 0;

}  // namespace

std::optional<std::string> find_chromium() {
  if (const char* env = std::getenv("JBENCH_CHROMIUM"); env != nullptr && *env != '\0') {
    return access(env, X_OK) == 0 ? std::optional<std::string>(env) : std::nullopt;
  }
  if (access("/usr/bin/chromium", X_OK) == 0) return "/usr/bin/chromium";
  return std::nullopt;
}

BrowserRun run_headless(const std::string& chromium, const std::string& page,
                        const std::vector<std::string>& extra, const std::string& scratch_dir,
                        int timeout_ms) {
  const std::string profile = scratch_dir + "/chromium-profile-" + std::to_string(getpid()) + "-" +
                              std::to_string(++profile_counter);
  // --no-sandbox: CI runs as root, where Chromium refuses its sandbox. The --disable-* flags
  // keep the browser from reaching for the network or a desktop on its own (component updates,
  // sync, first-run pages): the test is about what the page does.
  std::vector<std::string> argv = {chromium,
                                   "--headless=new",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--user-data-dir=" + profile,
                                   "--no-first-run",
                                   "--no-default-browser-check",
                                   "--disable-background-networking",
                                   "--disable-component-update",
                                   "--disable-sync",
                                   "--disable-extensions",
                                   "--enable-logging=stderr",
                                   "--v=0"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.push_back("file://" + page);

  BrowserRun run;
  const auto started = std::chrono::steady_clock::now();
  const proc::ToolRun tool = proc::run_to_completion(argv, std::nullopt, timeout_ms, 8 << 20);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  run.out = tool.out;
  run.err = tool.err;
  if (!tool.started) {
    run.what = "chromium did not start: " + tool.error;
  } else if (tool.timed_out) {
    run.what = "chromium did not finish within " + std::to_string(timeout_ms) + " ms";
  } else if (tool.signaled) {
    run.what = "chromium was killed by signal " + std::to_string(tool.signal);
  } else if (tool.exit_code != 0) {
    run.what = "chromium exited " + std::to_string(tool.exit_code);
  } else {
    run.ok = true;
  }
  // Anything that left the process group (a helper that called setsid) would have escaped the
  // group kill: find it by the profile it was given, count it, and kill it.
  for (const pid_t pid : processes_naming(profile)) {
    ++run.leftovers;
    kill(pid, SIGKILL);
  }
  return run;
}

std::vector<std::string> console_lines(const std::string& log) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.find(":CONSOLE") != std::string::npos) lines.push_back(line);
  }
  return lines;
}

}  // namespace jbench::test
