#include "fake_world.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

namespace jbench::run::fakes {
namespace {

using Json = nlohmann::json;

// A group id above any pid the kernel hands out (pid_max is at most 2^22): no process is in it.
constexpr pid_t kNoSuchGroup = 0x3fffff00;

class FakeWorker final : public WorkerProcess {
 public:
  FakeWorker(std::size_t index, std::size_t serial, WorkerScript script, FakeClock& clock,
             std::vector<std::string>& events)
      : index_(index), serial_(serial), script_(std::move(script)), clock_(clock), events_(events) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
      read_fd_ = fds[0];
      write_fd_ = fds[1];
    }
  }
  ~FakeWorker() override {
    if (read_fd_ >= 0) close(read_fd_);
    if (write_fd_ >= 0) close(write_fd_);
  }

  pid_t pid() const override { return getpid(); }
  pid_t process_group() const override { return kNoSuchGroup; }
  int stdout_fd() const override { return read_fd_; }
  // Held before exec until released, as a real worker: its hello comes after.
  Status release_exec() override {
    events_.push_back("release worker " + std::to_string(index_));
    if (script_.says_hello) say("hello");
    return {};
  }

  Status write_line(std::string_view line, int /*timeout_ms*/) override {
    if (status_ || stdin_closed_) return Error{"Broken pipe", EPIPE, ErrorKind::io};
    const Json m = Json::parse(line, nullptr, false);
    const std::string type = m.is_object() ? m.value("type", "?") : "?";
    events_.push_back("-> " + type);
    if (type == "configure") configured_ = m;
    const auto scripted = script_.answers.find(type);
    const std::vector<std::string> answers =
        scripted != script_.answers.end() ? scripted->second : protocol_answers(type);
    for (const auto& a : answers) {
      if (!a.empty()) say(a);
    }
    if (type == "exit") exit_with(0);
    return {};
  }
  void close_stdin() override { stdin_closed_ = true; }

  bool read_lines(std::vector<std::string>& lines, bool& overlong) override {
    overlong = false;
    char buf[4096];
    for (;;) {
      const ssize_t n = read(read_fd_, buf, sizeof buf);
      if (n <= 0) break;
      bytes_ += static_cast<std::uint64_t>(n);
      partial_.append(buf, static_cast<std::size_t>(n));
    }
    for (auto nl = partial_.find('\n'); nl != std::string::npos; nl = partial_.find('\n')) {
      lines.push_back(partial_.substr(0, nl));
      partial_.erase(0, nl + 1);
    }
    return !(status_ && partial_.empty() && write_fd_ < 0);
  }
  std::uint64_t bytes_read() const override { return bytes_; }

  std::optional<proc::ExitStatus> try_reap() override { return status_; }
  proc::ExitStatus kill_and_reap() override {
    if (!status_) {
      events_.push_back("kill worker " + std::to_string(index_));
      proc::ExitStatus s;
      s.signaled = true;
      s.signal = 9;
      end(s);
    }
    events_.push_back("reaped worker " + std::to_string(index_));
    return *status_;
  }
  const std::optional<proc::ExitStatus>& status() const override { return status_; }

 private:
  static std::vector<std::string> protocol_answers(const std::string& type) {
    if (type == "configure") return {"ready"};
    if (type == "canary") return {"canary_done"};
    if (type == "start") return {"warmup_done"};
    if (type == "measure") return {"measure_done", "result"};
    if (type == "exit") return {"bye"};
    return {};
  }

  void say(const std::string& type) {
    Json m = {{"type", type}, {"t_ns", std::to_string(clock_.now_ns())}};
    if (type == "hello") {
      m.update({{"pid", getpid()},
                {"protocol", 1},
                {"runtime_id", fmt_runtime_id()},
                {"clock", "CLOCK_MONOTONIC"},
                {"bridge", "off"}});
    } else if (type == "measure_done") {
      m.update({{"operations", 10},
                {"t_start_ns", std::to_string(clock_.now_ns())},
                {"t_end_ns", std::to_string(clock_.now_ns() + 1000)}});
    } else if (type == "result") {
      m.update(result());
    } else if (type == "bye") {
      m["teardown_ns"] = "1000";
    }
    events_.push_back("<- " + type);
    const std::string line = m.dump() + "\n";
    if (write_fd_ >= 0) (void)!write(write_fd_, line.data(), line.size());
  }

  // A writer's measured counts, as the protocol has them (the runner holds every result to
  // manifests/worker-result.schema.json and its counting rules): 10 writes, nothing read.
  Json result() const {
    const Json histogram = {{"format", "jbench.latency_histogram/1"},
                            {"unit", "ns"},
                            {"count", 10},
                            {"buckets", Json::array({Json::array({"1000", 10})})}};
    return {{"protocol", 1},
            {"worker", "fake"},
            {"worker_index", index_},
            {"runtime_id", fmt_runtime_id()},
            {"status", "ok"},
            {"conditions", Json::array()},
            {"lane", configured_.value("lane", "writer")},
            {"connection", configured_.value("connection", "persistent")},
            {"window_ns", "1000"},
            {"t_start_ns", "1"},
            {"t_end_ns", "1001"},
            {"operations", 10},
            {"operations_by_type", {{"insert", 10}}},
            {"reads", 0},
            {"writes", 10},
            {"transactions", 10},
            {"read_transactions", 0},
            {"write_transactions", 10},
            {"transactions_straddled", 0},
            {"retries", 0},
            {"errors", Json::object()},
            {"straddled", 0},
            {"throughput_ops_per_s", 1e7},
            {"latency_ns", {{"insert", histogram}}},
            {"rusage", {{"user_ns", "0"}, {"system_ns", "0"}}}};
  }

  // 32 lowercase hex digits, different for every worker the spawner made.
  std::string fmt_runtime_id() const {
    std::string id = "ab" + std::to_string(serial_);
    return id + std::string(32 - id.size(), 'c');
  }

  void exit_with(int code) {
    proc::ExitStatus s;
    s.code = code;
    end(s);
  }
  void end(proc::ExitStatus s) {
    status_ = s;
    if (write_fd_ >= 0) {
      close(write_fd_);  // its stdout reaches EOF once drained
      write_fd_ = -1;
    }
  }

  std::size_t index_;
  std::size_t serial_;
  WorkerScript script_;
  FakeClock& clock_;
  std::vector<std::string>& events_;
  int read_fd_ = -1;
  int write_fd_ = -1;
  std::string partial_;
  Json configured_ = Json::object();  // the configure message it was sent
  std::uint64_t bytes_ = 0;
  bool stdin_closed_ = false;
  std::optional<proc::ExitStatus> status_;
};

}  // namespace

WorkerScript protocol_script() { return {}; }

void FakeClock::wait(std::span<pollfd> fds, int timeout_ms) {
  const int ready = fds.empty() ? 0 : poll(fds.data(), fds.size(), 0);
  if (ready <= 0 && timeout_ms > 0) now_ += static_cast<std::uint64_t>(timeout_ms) * 1'000'000ULL;
}

Result<std::unique_ptr<WorkerProcess>> FakeSpawner::spawn(const proc::SpawnSpec& spec) {
  std::size_t index = 0;
  for (const auto& [key, value] : spec.extra_env) {
    if (key == "JBENCH_WORKER_INDEX") index = std::stoul(value);
  }
  events.push_back("spawn worker " + std::to_string(index));
  auto worker = std::make_unique<FakeWorker>(index, spawned++, script, clock_, events);
  return std::unique_ptr<WorkerProcess>(std::move(worker));
}

std::vector<proc::ProcStat> FakeSpawner::processes_in_group(pid_t /*group*/) { return {}; }

void FakeSpawner::signal_group(pid_t /*group*/, int signal) {
  events.push_back("signal group " + std::to_string(signal));
}

}  // namespace jbench::run::fakes
