// File helpers shared by the bundle and provenance suites.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "run_process.h"

namespace jbench::test {

std::string read_file(const std::string& path);
void write_bytes(const std::string& path, const std::string& bytes);
bool exists_nofollow(const std::string& path);
// Every entry below `dir`, relative, sorted ("a", "a/b", ...); symlinks are not followed.
std::vector<std::string> list_tree(const std::string& dir);
void copy_tree(const std::string& from, const std::string& to);
// Options for run_process: run in `dir`, with the default deadline.
ProcessOptions in_dir(const std::string& dir);

// readlink(/proc/self/exe).
std::string self_exe();
// Path of the first executable on PATH-like candidates that exists, or "".
std::string find_program(const std::vector<std::string>& candidates);

// A child process killed (SIGKILL) and reaped when this object dies.
class ChildGuard {
 public:
  explicit ChildGuard(pid_t pid) : pid_(pid) {}
  ~ChildGuard();
  ChildGuard(const ChildGuard&) = delete;
  ChildGuard& operator=(const ChildGuard&) = delete;
  pid_t pid() const { return pid_; }
  // Waits for the child and returns its wait status; the guard then has nothing left to do.
  int wait();

 private:
  pid_t pid_;
};

// Forks a child that burns CPU until `seconds` have passed (wall clock), then exits. The child
// dies with the test process (PR_SET_PDEATHSIG).
pid_t spawn_cpu_burner(double seconds);

// fork + execv(argv) with PR_SET_PDEATHSIG; returns the pid (the caller guards it).
pid_t spawn(const std::vector<std::string>& argv);

}  // namespace jbench::test
