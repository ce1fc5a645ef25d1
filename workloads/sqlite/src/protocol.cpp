#include "jbench/sqlite_workload/protocol.h"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <nlohmann/json.hpp>

namespace jbench::sqlite_workload {

LineReader::Status LineReader::next(std::string& line) {
  for (;;) {
    if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
      line.assign(buffer_, 0, nl);
      buffer_.erase(0, nl + 1);
      return Status::line;
    }
    if (buffer_.size() > kMaxLineBytes) return Status::too_long;
    std::array<char, 4096> chunk{};
    const ssize_t n = ::read(fd_, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      errno_ = errno;
      return Status::read_error;
    }
    if (n == 0) return Status::eof;
    buffer_.append(chunk.data(), static_cast<std::size_t>(n));
  }
}

bool write_json_line(int fd, const nlohmann::json& message) {
  // Replace invalid UTF-8 (e.g. from an SQLite error message) rather than throw.
  std::string text = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  text.push_back('\n');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace jbench::sqlite_workload
