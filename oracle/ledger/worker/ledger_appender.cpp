#include "ledger_appender.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jbench::oracle::ledger_worker {

LedgerAppender::~LedgerAppender() {
  if (fd_ >= 0) ::close(fd_);
}

bool LedgerAppender::open(const std::string& path, std::string& error) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) error = "cannot open ledger '" + path + "': " + std::strerror(errno);
  return fd_ >= 0;
}

bool LedgerAppender::append_raw(std::string_view text, std::string& error) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd_, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = std::string("ledger write failed: ") + std::strerror(errno);
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::fdatasync(fd_) != 0) {
    error = std::string("ledger fdatasync failed: ") + std::strerror(errno);
    return false;
  }
  return true;
}

bool LedgerAppender::append_line(std::string_view line, std::string& error) {
  std::string text(line);
  text.push_back('\n');
  return append_raw(text, error);
}

}  // namespace jbench::oracle::ledger_worker
