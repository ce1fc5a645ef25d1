#include "jbench/sqlite_workload/plant.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

#include "jbench/common/clock.h"

namespace jbench::sqlite_workload {
namespace {

// The same bytes every time: the plant is a fixed cost, so nothing about it may vary but the
// kernel's work. A line a person can recognise in the file, padded to the record size.
constexpr std::array<char, FsyncPlant::kRecordBytes> make_record() {
  std::array<char, FsyncPlant::kRecordBytes> r{};
  constexpr std::string_view kHead = "jbench fsync plant record ";
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = i < kHead.size() ? kHead[i] : '.';
  r[r.size() - 1] = '\n';
  return r;
}
constexpr auto kRecord = make_record();

Error sys_error(std::string what, int err) {
  return {fmt::format("{}: {}", what, std::strerror(err)), err, ErrorKind::io};
}

}  // namespace

std::string plant_path(const std::string& db, const std::string& name) {
  return db.substr(0, db.rfind('/') + 1) + name;
}

Result<FsyncPlant> FsyncPlant::open(std::string path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return sys_error(fmt::format("cannot open the plant file {}", path), errno);
  return FsyncPlant(std::move(path), fd);
}

FsyncPlant::FsyncPlant(FsyncPlant&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

FsyncPlant& FsyncPlant::operator=(FsyncPlant&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

FsyncPlant::~FsyncPlant() {
  if (fd_ >= 0) ::close(fd_);
}

Result<PlantTiming> FsyncPlant::fire() {
  const std::uint64_t t0 = monotonic_ns();
  const ssize_t n = ::write(fd_, kRecord.data(), kRecord.size());
  if (n < 0) return sys_error(fmt::format("write to the plant file {}", path_), errno);
  if (static_cast<std::size_t>(n) != kRecord.size()) {
    return Error{
        fmt::format("write to the plant file {}: wrote {} of {} bytes", path_, n, kRecord.size()),
        0, ErrorKind::io};
  }
  const std::uint64_t t1 = monotonic_ns();
  if (::fdatasync(fd_) != 0) {
    return sys_error(fmt::format("fdatasync of the plant file {}", path_), errno);
  }
  const std::uint64_t t2 = monotonic_ns();
  return PlantTiming{elapsed_ns(t0, t2), elapsed_ns(t1, t2)};
}

}  // namespace jbench::sqlite_workload
