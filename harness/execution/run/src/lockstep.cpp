#include "lockstep.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

#include "jbench/common/clock.h"

namespace jbench::run {
namespace {

namespace fs = std::filesystem;

// "<pid>.<what>" -> pid, or "" when the name is not a party's mark.
std::string party_of(const std::string& name) {
  const auto dot = name.find('.');
  if (dot == 0 || dot == std::string::npos) return {};
  const std::string pid = name.substr(0, dot);
  return std::all_of(pid.begin(), pid.end(), [](char c) { return c >= '0' && c <= '9'; })
             ? pid
             : std::string();
}

}  // namespace

Lockstep::Lockstep(std::string dir, std::uint32_t parties, int inotify_fd)
    : dir_(std::move(dir)), parties_(parties), inotify_fd_(inotify_fd) {}

Lockstep::Lockstep(Lockstep&& other) noexcept
    : dir_(std::move(other.dir_)),
      parties_(other.parties_),
      inotify_fd_(std::exchange(other.inotify_fd_, -1)),
      broken_(std::move(other.broken_)) {}

Lockstep::~Lockstep() {
  if (inotify_fd_ < 0) return;  // moved from
  mark("end");
  ::close(inotify_fd_);
}

Result<Lockstep> Lockstep::join(const std::string& dir, std::uint32_t parties) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{fmt::format("cannot create the lockstep folder {}: {}", dir, ec.message())};
  const int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (fd < 0) return Error{fmt::format("inotify_init1: {}", std::strerror(errno)), errno};
  // Watched before anything is read, so no mark made after the first look is missed.
  if (inotify_add_watch(fd, dir.c_str(), IN_CREATE | IN_MOVED_TO) < 0) {
    const int e = errno;
    ::close(fd);
    return Error{fmt::format("cannot watch the lockstep folder {}: {}", dir, std::strerror(e)), e};
  }
  Lockstep joined(dir, std::max<std::uint32_t>(parties, 1), fd);
  joined.mark("joined");
  return joined;
}

void Lockstep::mark(const std::string& what) const {
  const std::string path = fmt::format("{}/{}.{}", dir_, getpid(), what);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) ::close(fd);
}

std::uint32_t Lockstep::arrived(std::uint64_t k) const {
  const std::string me = std::to_string(getpid());
  const std::string reached = fmt::format("run-{}", k);
  std::set<std::string> parties;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    const std::string party = party_of(name);
    if (party.empty() || party == me) continue;
    const std::string what = name.substr(party.size() + 1);
    if (what == reached || what == "end") parties.insert(party);
  }
  return static_cast<std::uint32_t>(parties.size());
}

void Lockstep::pass(std::uint64_t k) const { mark(fmt::format("run-{}", k)); }

nlohmann::json Lockstep::meet(std::uint64_t k, std::uint64_t deadline_ns) {
  const std::uint64_t start = monotonic_ns();
  pass(k);
  nlohmann::json out = {{"run", k}, {"parties", parties_}};
  const auto done = [&](bool met) {
    out["met"] = met;
    out["waited_ns"] = ns_string(monotonic_ns() - start);
    if (!met) out["reason"] = broken_;
    return out;
  };
  if (!broken_.empty()) return done(false);
  for (;;) {
    // Drain what woke us, then look: a mark made in between is seen by this look or wakes us.
    char events[4096];
    while (::read(inotify_fd_, events, sizeof events) > 0) {
    }
    if (arrived(k) + 1 >= parties_) return done(true);
    const std::uint64_t now = monotonic_ns();
    if (now >= deadline_ns) {
      broken_ = fmt::format(
          "the other parties had not reached run {} after {:.1f} s: this session measures alone "
          "from run {} on",
          k, static_cast<double>(now - start) / 1e9, k);
      return done(false);
    }
    pollfd p{inotify_fd_, POLLIN, 0};
    const auto left_ms = (deadline_ns - now + 999'999) / 1'000'000;
    ::poll(&p, 1, static_cast<int>(std::min<std::uint64_t>(left_ms, 60'000)));
  }
}

}  // namespace jbench::run
