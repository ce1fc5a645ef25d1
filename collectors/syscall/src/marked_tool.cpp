#include "marked_tool.h"

#include <fmt/format.h>
#include <sys/syscall.h>  // SYS_getpgid, on every system DTrace lives on too
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "jbench/common/clock.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {

void marker_call(std::int64_t value) { ::syscall(SYS_getpgid, static_cast<pid_t>(value)); }

void note_live_line(LiveView& live, const LiveLine& l) {
  if (l.kind == LiveLine::Kind::other || l.kind == LiveLine::Kind::process) return;
  std::lock_guard lock(live.mu);
  if (l.kind == LiveLine::Kind::marker) live.marker_seen = true;
  if (l.kind == LiveLine::Kind::sync) live.sync_seen = std::max(live.sync_seen, l.sync);
  if (l.kind == LiveLine::Kind::canary) live.canaries.try_emplace(l.canary.pid, l.canary);
  if (l.kind == LiveLine::Kind::lost) live.lost += l.lost;
  live.changed.notify_all();
}

jbench::Status await_attach_marker(BackendProcess& process, LiveView& live,
                                   std::uint64_t deadline_ns, std::string_view tool,
                                   std::string_view stderr_name,
                                   const std::function<std::string()>& why_exited) {
  std::unique_lock lock(live.mu);
  while (!live.marker_seen) {
    lock.unlock();
    if (!process.running()) {
      const std::string why = why_exited();
      return attach_failed(
          fmt::format("{} exited before it attached{}{}", tool, why.empty() ? "" : ": ", why));
    }
    if (monotonic_ns() >= deadline_ns) {
      process.stop(monotonic_ns() + 2'000'000'000ULL);
      return attach_failed(
          fmt::format("{} did not attach within the attach timeout (see {})", tool, stderr_name));
    }
    marker_call(kPhaseMarkerBase + 0);
    lock.lock();
    live.changed.wait_for(lock, std::chrono::milliseconds(20));
  }
  return {};
}

bool await_sync_marker(BackendProcess& process, LiveView& live, int& syncs,
                       std::uint64_t deadline_ns) {
  const int n = ++syncs;
  marker_call(kSyncMarkerBase + n);
  std::unique_lock lock(live.mu);
  while (live.sync_seen < n) {
    if (monotonic_ns() >= deadline_ns) return false;
    lock.unlock();
    const bool running = process.running();
    lock.lock();
    if (!running) return false;
    live.changed.wait_for(lock, std::chrono::milliseconds(5));
  }
  return true;
}

bool catch_up_before_stop(BackendProcess& process, LiveView& live, int& syncs,
                          std::uint64_t deadline_ns, std::uint64_t quiet_ns) {
  if (!process.running()) return true;  // ended already: whatever it printed is all there is
  if (!await_sync_marker(process, live, syncs, deadline_ns) ||
      !await_sync_marker(process, live, syncs, deadline_ns)) {
    return false;
  }
  std::uint64_t seen = process.output_bytes();
  std::uint64_t quiet_since = monotonic_ns();
  while (monotonic_ns() < deadline_ns && monotonic_ns() - quiet_since < quiet_ns) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (const std::uint64_t now = process.output_bytes(); now != seen) {
      seen = now;
      quiet_since = monotonic_ns();
    }
  }
  return monotonic_ns() - quiet_since >= quiet_ns;
}

}  // namespace jbench::collectors::syscall_detail
