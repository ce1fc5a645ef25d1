#include "phase_marker.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jbench::oracle::ledger_worker {

PhaseMarker::~PhaseMarker() {
  if (byte_) ::munmap(const_cast<std::uint8_t*>(byte_), 1);
}

bool PhaseMarker::open(const std::string& path, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || ::ftruncate(fd, 1) != 0) {
    error = "cannot open phase file '" + path + "': " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return false;
  }
  void* p = ::mmap(nullptr, 1, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) {
    error = "cannot map phase file '" + path + "': " + std::strerror(errno);
    return false;
  }
  byte_ = static_cast<std::uint8_t*>(p);
  return true;
}

void PhaseMarker::set(WriterPhase phase) {
  if (byte_) *byte_ = static_cast<std::uint8_t>(phase);
}

}  // namespace jbench::oracle::ledger_worker
