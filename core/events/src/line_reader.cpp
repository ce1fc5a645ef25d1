#include "jbench/events/line_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace jbench::events {

LineRead for_each_line(const std::string& path, std::size_t max_line_bytes,
                       const std::function<bool(std::size_t, std::string_view)>& on_line,
                       const std::function<void(std::size_t)>& on_overlong) {
  LineRead r;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    r.error = std::string("cannot open: ") + std::strerror(errno);
    return r;
  }
  // Whole lines are handed out of the buffer itself; only a line split across two reads is
  // copied into `carry`, so the common case never copies.
  std::vector<char> buffer(1 << 20);
  std::string carry;
  bool overlong = false;
  const auto deliver = [&](std::string_view line) {
    ++r.lines;
    if (overlong || line.size() > max_line_bytes) {
      on_overlong(r.lines);
      return true;
    }
    return on_line(r.lines, line);
  };
  for (;;) {
    const ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      r.error = std::string("cannot read: ") + std::strerror(errno);
      break;
    }
    if (got == 0) break;
    r.bytes += static_cast<std::uint64_t>(got);
    const char* p = buffer.data();
    const char* const end = p + got;
    while (p < end) {
      const char* nl =
          static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      if (nl == nullptr) {
        if (!overlong) carry.append(p, end);
        if (carry.size() > max_line_bytes) {
          overlong = true;
          carry.clear();
        }
        break;
      }
      bool go_on;
      if (carry.empty() && !overlong) {
        go_on = deliver(std::string_view(p, static_cast<std::size_t>(nl - p)));
      } else {
        if (!overlong) carry.append(p, nl);
        go_on = deliver(carry);
        carry.clear();
      }
      overlong = false;
      p = nl + 1;
      if (!go_on) {
        r.stopped = true;
        ::close(fd);
        return r;
      }
    }
  }
  if (r.error.empty() && (overlong || !carry.empty())) {
    if (!deliver(carry)) r.stopped = true;
  }
  ::close(fd);
  return r;
}

}  // namespace jbench::events
