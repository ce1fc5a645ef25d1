#include "lockstep.h"

#include <fcntl.h>
#include <fmt/format.h>
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

Lockstep::Lockstep(std::string dir, std::uint32_t parties, FolderWatch watch)
    : dir_(std::move(dir)), parties_(parties), watch_(std::move(watch)) {}

Lockstep::Lockstep(Lockstep&& other) noexcept
    : dir_(std::move(other.dir_)),
      parties_(other.parties_),
      watch_(std::move(other.watch_)),
      joined_(std::exchange(other.joined_, false)),
      broken_(std::move(other.broken_)) {}

Lockstep::~Lockstep() {
  if (joined_) mark("end");
}

Result<Lockstep> Lockstep::join(const std::string& dir, std::uint32_t parties, WatchKind kind) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{fmt::format("cannot create the lockstep folder {}: {}", dir, ec.message())};
  // Watched before anything is read, so no mark made after the first look is missed.
  auto watch = FolderWatch::open(dir, kind);
  if (!watch) return watch.error().within("the lockstep folder");
  Lockstep joined(dir, std::max<std::uint32_t>(parties, 1), std::move(watch).value());
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
    watch_.drain();
    if (arrived(k) + 1 >= parties_) return done(true);
    const std::uint64_t now = monotonic_ns();
    if (now >= deadline_ns) {
      broken_ = fmt::format(
          "the other parties had not reached run {} after {:.1f} s: this session measures alone "
          "from run {} on",
          k, static_cast<double>(now - start) / 1e9, k);
      return done(false);
    }
    const auto left_ms = (deadline_ns - now + 999'999) / 1'000'000;
    watch_.wait(static_cast<int>(std::min<std::uint64_t>(left_ms, 60'000)));
  }
}

}  // namespace jbench::run
