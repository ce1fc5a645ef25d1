#include "jbench/common/small_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jbench {
namespace {

Error file_error(const char* what, const std::string& path, int err) {
  return Error{std::string(what) + " " + path + ": " + std::strerror(err), err, ErrorKind::host};
}

}  // namespace

Result<std::string> read_small_file(const std::string& path, std::size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return file_error("cannot open", path, errno);
  std::string text;
  char buf[8192];
  while (text.size() < max_bytes) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return file_error("cannot read", path, err);
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  if (text.size() > max_bytes) text.resize(max_bytes);  // the last read may have gone past it
  return text;
}

Result<std::string> read_first_line(const std::string& path) {
  auto text = read_small_file(path);
  if (!text) return text;
  const auto nl = text->find('\n');
  if (nl != std::string::npos) text.value().resize(nl);
  return text;
}

}  // namespace jbench
