// Running `jbench run` in a test and reading what it left.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_process.h"
#include "temp_dir.h"

namespace jbench::test {

std::string fixture(const std::string& name);  // tests/fixtures/run/<name>
std::string fault_worker_dir();

// `jbench run MATRIX --out <dir>/out --name NAME args...` with JBENCH_TEST_TAG=<tag> in the
// environment of jbench and so of every worker, to find leftovers afterwards.
struct RunInvocation {
  std::string matrix = "tiny.yaml";  // a fixture's name, or an absolute path
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string name = "b";
  std::string out;          // empty: <dir>/out; a relative path is relative to `cwd`
  std::string cwd;          // jbench's working directory; empty: the test's
  int signal = 0;           // sent to jbench once it has printed `signal_when`
  std::string signal_when;  // e.g. "run 1/": the first run's progress line
  // The runner's own tests run the baseline only (`--only trace=baseline`); traced modes have
  // their own tests, which set this.
  bool traced = false;
};
ProcessResult run_jbench_run(const TempDir& dir, const RunInvocation& invocation,
                             const std::string& tag);

nlohmann::json read_json(const std::string& path);

// `jbench validate BUNDLE` finds nothing wrong (its findings are the failure's message).
void expect_valid_bundle(const std::string& bundle);

// Processes (other than zombies) whose environment holds JBENCH_TEST_TAG=<tag>.
std::vector<int> processes_tagged(const std::string& tag);

std::string unique_tag();

}  // namespace jbench::test
