#include "worker_link.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/stat.h>

#include <algorithm>

namespace jbench::run {

void Transcript::record(std::size_t worker, std::string_view direction, std::string_view line) {
  nlohmann::json entry = {{"t_ns", std::to_string(clock_->now_ns())},
                          {"worker", worker},
                          {"dir", direction},
                          {"line", line}};
  text_ += entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  text_ += '\n';
}

std::string_view wait_result_name(WaitResult r) {
  switch (r) {
    case WaitResult::ok:
      return "ok";
    case WaitResult::failed:
      return "failed";
    case WaitResult::timeout:
      return "timeout";
    case WaitResult::interrupted:
      return "interrupted";
    case WaitResult::overflow:
      return "overflow";
  }
  return "?";
}

namespace {

// A worker that closed its pipes is usually exiting: give the kernel up to a second to make it
// reapable, so a reason can say how it ended ("exit 7", "signal 9 (Killed)").
std::string how_it_ended(WorkerLink& w, Clock& clock) {
  for (int i = 0; i < 100; ++i) {
    if (auto s = w.process->try_reap()) return s->describe();
    clock.wait({}, 10);
  }
  return "still running";
}

}  // namespace

bool send_one(WorkerLink& worker, const nlohmann::json& message, Transcript& transcript,
              Clock& clock, WaitFailure& failure) {
  const std::string line = message.dump();
  transcript.record(worker.index, "out", line);
  if (const Status written = worker.process->write_line(line, 1000); !written) {
    failure = {WaitResult::failed, worker.index,
               fmt::format("worker {} did not take \"{}\" ({}): {}", worker.index,
                           message.value("type", "?"), how_it_ended(worker, clock),
                           written.error().message)};
    return false;
  }
  return true;
}

bool send_all(std::vector<WorkerLink>& workers, const nlohmann::json& message,
              Transcript& transcript, Clock& clock, WaitFailure& failure) {
  for (auto& w : workers) {
    if (!send_one(w, message, transcript, clock, failure)) return false;
  }
  return true;
}

namespace {

// Moves complete lines from the worker's pipe into its inbox. A problem becomes `failure`.
bool drain(WorkerLink& w, Transcript& transcript, WaitFailure& failure) {
  std::vector<std::string> lines;
  bool overlong = false;
  const bool open = w.process->read_lines(lines, overlong);
  for (const auto& line : lines) {
    transcript.record(w.index, "in", line);
    auto message = nlohmann::json::parse(line, nullptr, false);
    if (message.is_discarded() || !message.is_object() || !message.contains("type") ||
        !message["type"].is_string()) {
      failure = {WaitResult::failed, w.index,
                 fmt::format("worker {} sent a line that is not a protocol message: {}", w.index,
                             line.substr(0, 200))};
      return false;
    }
    w.inbox.push_back(std::move(message));
  }
  if (overlong) {
    failure = {WaitResult::failed, w.index,
               fmt::format("worker {} sent a line longer than 1 MiB", w.index)};
    return false;
  }
  if (!open) w.eof = true;
  return true;
}

}  // namespace

std::uint64_t output_bytes(const std::vector<WorkerLink>& workers, const PumpLimits& limits) {
  std::uint64_t total = 0;
  for (const auto& w : workers) total += w.process->bytes_read();
  for (const auto& path : limits.stderr_paths) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) total += static_cast<std::uint64_t>(st.st_size);
  }
  return total;
}

WaitFailure await_all(std::vector<WorkerLink>& workers, std::string_view type,
                      const PumpLimits& limits, const proc::InterruptWatch& interrupt,
                      Transcript& transcript, Clock& clock, std::vector<nlohmann::json>& got) {
  got.assign(workers.size(), nlohmann::json());
  std::vector<bool> done(workers.size(), false);
  WaitFailure failure;
  for (;;) {
    // Take what already arrived.
    for (auto& w : workers) {
      if (done[w.index] || w.inbox.empty()) continue;
      nlohmann::json m = std::move(w.inbox.front());
      w.inbox.pop_front();
      const std::string t = m["type"].get<std::string>();
      if (t == type) {
        got[w.index] = std::move(m);
        done[w.index] = true;
        continue;
      }
      std::string detail = m.dump();
      return {WaitResult::failed, w.index,
              fmt::format("worker {} sent \"{}\" while \"{}\" was expected: {}", w.index, t, type,
                          detail.substr(0, 300))};
    }
    if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) return failure;
    for (auto& w : workers) {
      if (!done[w.index] && w.inbox.empty() && w.eof) {
        const std::string status = how_it_ended(w, clock);
        return {WaitResult::failed, w.index,
                fmt::format("worker {} closed its output before sending \"{}\" ({})", w.index, type,
                            status)};
      }
    }
    if (interrupt.interrupted()) {
      return {WaitResult::interrupted, 0,
              fmt::format("interrupted by signal {} while waiting for \"{}\"", interrupt.signal(),
                          type)};
    }
    const std::uint64_t total = output_bytes(workers, limits);
    if (limits.max_output_bytes > 0 && total > limits.max_output_bytes) {
      return {WaitResult::overflow, 0,
              fmt::format("the workers wrote {} bytes, over the run's output bound of {} "
                          "(limits.output_mib)",
                          total, limits.max_output_bytes)};
    }
    const std::uint64_t now = clock.now_ns();
    if (now >= limits.deadline_ns) {
      std::string missing;
      for (const auto& w : workers) {
        if (!done[w.index]) missing += (missing.empty() ? "" : ", ") + std::to_string(w.index);
      }
      return {WaitResult::timeout, 0,
              fmt::format("timed out waiting for \"{}\" from worker(s) {}", type, missing)};
    }
    // Sleep until a worker speaks, a signal arrives or the deadline passes.
    std::vector<pollfd> fds;
    std::vector<std::size_t> owner;
    for (const auto& w : workers) {
      if (done[w.index] || w.eof) continue;
      fds.push_back({w.process->stdout_fd(), POLLIN, 0});
      owner.push_back(w.index);
    }
    fds.push_back({interrupt.wake_fd(), POLLIN, 0});
    const auto wait_ms = std::min<std::uint64_t>((limits.deadline_ns - now) / 1'000'000 + 1, 250);
    clock.wait(fds, static_cast<int>(wait_ms));
    for (std::size_t i = 0; i + 1 < fds.size(); ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      if (!drain(workers[owner[i]], transcript, failure)) return failure;
    }
  }
}

}  // namespace jbench::run
