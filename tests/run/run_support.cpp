#include "run_support.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "jbench/proc/proc_stat.h"

namespace jbench::test {

std::string fixture(const std::string& name) {
  return std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/run/" + name;
}

std::string fault_worker_dir() { return JBENCH_FAULT_WORKER_DIR; }

ProcessResult run_jbench_run(const TempDir& dir, const RunInvocation& inv, const std::string& tag) {
  std::vector<std::string> argv = {JBENCH_BINARY,
                                   "run",
                                   inv.matrix.starts_with('/') ? inv.matrix : fixture(inv.matrix),
                                   "--out",
                                   inv.out.empty() ? dir.path() + "/out" : inv.out,
                                   "--name",
                                   inv.name};
  argv.insert(argv.end(), inv.args.begin(), inv.args.end());
  if (!inv.traced) {
    argv.push_back("--only");
    argv.push_back("trace=baseline");
  }
  ProcessOptions options;
  options.cwd = inv.cwd;
  options.timeout = std::chrono::seconds(120);
  options.env = inv.env;
  options.env.emplace_back("JBENCH_TEST_TAG", tag);
  options.signal = inv.signal;
  options.signal_when = inv.signal_when;
  return run_process(argv, options);
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str(), nullptr, false);
}

void expect_valid_bundle(const std::string& bundle) {
  const ProcessResult valid = run_process({JBENCH_BINARY, "validate", bundle}, {});
  EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;
}

std::vector<int> processes_tagged(const std::string& tag) {
  std::vector<int> found;
  const std::string needle = "JBENCH_TEST_TAG=" + tag;
  DIR* proc = opendir("/proc");
  while (dirent* e = proc ? readdir(proc) : nullptr) {
    const int pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    const auto stat = proc::read_proc_stat(pid);
    if (!stat || stat->state == 'Z') continue;  // gone, or a zombie: nothing left running
    std::ifstream env("/proc/" + std::string(e->d_name) + "/environ", std::ios::binary);
    std::stringstream s;
    s << env.rdbuf();
    const std::string environ = s.str();
    std::size_t start = 0;
    while (start < environ.size()) {
      const auto end = environ.find('\0', start);
      if (environ.compare(start, end - start, needle) == 0) found.push_back(pid);
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  if (proc) closedir(proc);
  return found;
}

std::string unique_tag() {
  return std::to_string(getpid()) + "-" +
         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
}

}  // namespace jbench::test
