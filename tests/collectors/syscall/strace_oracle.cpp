#include "strace_oracle.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>

#include "host_tools.h"
#include "jbench/common/clock.h"
#include "jbench/proc/child_process.h"
#include "syscall_table.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

// strace -c's table: "% time seconds usecs/call calls [errors] syscall" -> name -> (calls, errors).
std::map<std::string, std::pair<long, long>> parse_strace_counts(const std::string& path) {
  std::map<std::string, std::pair<long, long>> out;
  std::ifstream in(path);
  std::string line;
  int rules = 0;
  while (std::getline(in, line)) {
    if (line.starts_with("------")) {
      ++rules;
      continue;
    }
    if (rules != 1) continue;  // only the rows between the two rules
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.size() == 5) out[f[4]] = {std::stol(f[3]), 0};
    if (f.size() == 6) out[f[5]] = {std::stol(f[3]), std::stol(f[4])};
  }
  return out;
}

}  // namespace

void expect_agreement_with_strace(const std::string& backend, collectors::SyscallDetail detail) {
  TempDir dir;
  const std::string table = dir.path() + "/strace-c.txt";
  std::unique_ptr<proc::ChildProcess> oracle;
  Scenario s;
  s.detail = detail;
  s.backend = backend;
  s.warmup_rounds = 2;
  s.measure_rounds = 3;
  s.fork_rounds_in_measure = 2;
  s.after_spawn = [&](pid_t pid) {
    std::string calls;
    for (const auto& c : collectors::syscall_detail::traced_calls()) {
      calls += (calls.empty() ? "" : ",") + std::string(c.name);
    }
    proc::SpawnSpec spec;
    spec.executable = collectors::syscall_detail::find_on_path("strace");
    spec.args = {"-f", "-c", "-o", table, "-e", "trace=" + calls, "-p", std::to_string(pid)};
    auto spawned = proc::ChildProcess::spawn(spec);
    ASSERT_TRUE(spawned) << spawned.error().message;
    oracle = std::move(*spawned);
    const std::uint64_t deadline = monotonic_ns() + 10'000'000'000ULL;
    while (!collectors::syscall_detail::all_threads_traced_by(pid, oracle->pid())) {
      ASSERT_LT(monotonic_ns(), deadline) << "strace -c did not attach";
      ::poll(nullptr, 0, 2);
    }
  };
  s.after_exit = [&] {
    // Its tracee is gone: strace -c prints the table and exits by itself.
    const std::uint64_t deadline = monotonic_ns() + 10'000'000'000ULL;
    while (!oracle->try_reap() && monotonic_ns() < deadline) ::poll(nullptr, 0, 5);
    const auto status = oracle->reaped() ? *oracle->status() : oracle->kill_and_reap();
    EXPECT_EQ(status.code, 0) << status.describe();
  };
  const Outcome o = run_scenario(s, dir.path());
  ASSERT_EQ(o.entry.value("status", ""), "ok") << o.entry.dump(2);
  EXPECT_EQ(o.entry["backend"], backend);
  ASSERT_TRUE(oracle && oracle->reaped());

  std::map<std::string, std::pair<long, long>> collected;
  for (const auto& inc : o.entry["summary"]["incarnations"]) {
    for (const auto& [phase, calls] : inc["phases"].items()) {
      for (const auto& [call, cell] : calls.items()) {
        if (call.rfind("off-cpu:", 0) == 0) continue;  // not a system call: strace has none
        if (call == "syscall:other") continue;         // calls strace was not asked to trace
        collected[call].first += cell["count"].get<long>();
        collected[call].second += cell["errors"].get<long>();
      }
    }
  }
  const auto expected = parse_strace_counts(table);
  ASSERT_FALSE(expected.empty()) << "no table in " << table;
  EXPECT_EQ(collected, expected);
}

}  // namespace jbench::test
