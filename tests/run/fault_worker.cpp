// A jbench-sqlite-worker that misbehaves on purpose, for the runner's fault tests.
//
// It runs the real worker (jbench::sqlite_workload::serve) on a thread and relays the protocol
// lines between the harness and it, so it has the real worker's pid, runtime id and behaviour —
// until the fault chosen by JBENCH_FAULT strikes:
//   silent               never says hello (blocks forever; the harness must time out)
//   garbage              says something that is not a protocol message
//   exit_before_barrier  exits with code 7 right after the canary, before the start barrier
//   hang_in_measure      stops talking once the measure phase begins
//   kill_in_measure      SIGKILLs itself 300 ms into the measure phase, mid-transaction
//   spam_stderr          writes to stderr without end once measuring (the output bound)
//   fork_child           forks a child at the start barrier that outlives the run (it sleeps
//                        30 s at most); it must join the cohort and be killed at teardown
//   miscount_result      its result claims one operation more than it counted
//   wrong_version        its hello says it speaks protocol 2
// JBENCH_FAULT_RUN, when set, limits the fault to runs whose id contains it; other runs, and
// build-dataset, behave exactly like the real worker.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "jbench/sqlite_workload/worker.h"

namespace {

[[noreturn]] void block_forever() {
  for (;;) pause();
}

bool write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads lines from `fd` into `buffer`; returns each complete line (without '\n') via `take`.
template <typename Take>
bool pump(int fd, std::string& buffer, Take take) {
  char chunk[4096];
  const ssize_t n = read(fd, chunk, sizeof chunk);
  if (n <= 0) return false;
  buffer.append(chunk, static_cast<std::size_t>(n));
  for (std::size_t pos; (pos = buffer.find('\n')) != std::string::npos;) {
    take(buffer.substr(0, pos));
    buffer.erase(0, pos + 1);
  }
  return true;
}

bool is_type(const std::string& line, const char* type) {
  return line.find(std::string("\"type\":\"") + type + "\"") != std::string::npos;
}

// The result line with its top-level "operations" one higher (the first such key is the
// result's own: the worker writes it before operations_by_type).
std::string miscounted(std::string line) {
  const std::string key = "\"operations\":";
  const auto at = line.find(key);
  if (at == std::string::npos) return line;
  const auto start = at + key.size();
  const auto end = line.find_first_not_of("0123456789", start);
  const long n = std::strtol(line.substr(start, end - start).c_str(), nullptr, 10);
  return line.replace(start, end - start, std::to_string(n + 1));
}

int relay(const std::string& fault) {
  if (fault == "silent") block_forever();
  if (fault == "garbage") {
    write_all(STDOUT_FILENO, "this is not a protocol message\n");
    block_forever();
  }
  int to_worker[2];
  int from_worker[2];
  if (pipe(to_worker) != 0 || pipe(from_worker) != 0) return 1;
  std::thread worker([&] {
    jbench::sqlite_workload::serve(to_worker[0], from_worker[1]);
    close(from_worker[1]);
  });
  worker.detach();
  std::string from_harness;
  std::string from_real;
  for (;;) {
    pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {from_worker[0], POLLIN, 0}};
    poll(fds, 2, -1);
    if (fds[0].revents) {
      const bool open = pump(STDIN_FILENO, from_harness, [&](const std::string& line) {
        if (fault == "fork_child" && is_type(line, "start") && fork() == 0) {
          close_range(3, ~0U, 0);  // keep the relay's own pipes out of the child
          execl("/bin/sleep", "sleep", "30", static_cast<char*>(nullptr));
          _exit(127);
        }
        if (is_type(line, "measure")) {
          if (fault == "hang_in_measure") block_forever();
          if (fault == "kill_in_measure") {
            std::thread([] {
              usleep(300'000);
              raise(SIGKILL);
            }).detach();
          }
          if (fault == "spam_stderr") {
            std::thread([] {
              const std::string noise(4096, 'x');
              for (;;) write_all(STDERR_FILENO, noise);
            }).detach();
          }
        }
        write_all(to_worker[1], line + "\n");
      });
      if (!open) close(to_worker[1]);
    }
    if (fds[1].revents) {
      const bool open = pump(from_worker[0], from_real, [&](std::string line) {
        if (fault == "miscount_result" && is_type(line, "result")) line = miscounted(line);
        if (fault == "wrong_version" && is_type(line, "hello")) {
          const auto at = line.find("\"protocol\":1");
          if (at != std::string::npos) line.replace(at, 12, "\"protocol\":2");
        }
        write_all(STDOUT_FILENO, line + "\n");
        if (fault == "exit_before_barrier" && is_type(line, "canary_done")) _exit(7);
      });
      if (!open) return 0;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const char* fault = std::getenv("JBENCH_FAULT");
  const char* only = std::getenv("JBENCH_FAULT_RUN");
  const char* run = std::getenv("JBENCH_RUN_ID");
  const bool serving = argc >= 2 && std::strcmp(argv[1], "serve") == 0;
  const bool selected = !only || (run && std::strstr(run, only));
  if (!fault || !serving || !selected) return jbench::sqlite_workload::run_worker(argc, argv);
  return relay(fault);
}
