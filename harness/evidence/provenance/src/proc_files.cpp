#include "proc_files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "jbench/common/text.h"

namespace jbench::provenance_detail {

std::optional<std::string> read_text(const std::string& path, std::string& why,
                                     std::size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    why = fmt::format("cannot open {}: {}", path, std::strerror(err));
    return std::nullopt;
  }
  std::string text;
  char buf[8192];
  while (text.size() < max_bytes) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      why = fmt::format("cannot read {}: {}", path, std::strerror(err));
      return std::nullopt;
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

std::optional<std::string> read_first_line(const std::string& path, std::string& why) {
  auto text = read_text(path, why, 64 * 1024);
  if (!text) return std::nullopt;
  const auto nl = text->find('\n');
  if (nl != std::string::npos) text->resize(nl);
  return text;
}

std::optional<std::vector<unsigned>> parse_cpu_list(const std::string& text) {
  std::vector<unsigned> cpus;
  const std::string list = trim(text);
  if (list.empty()) return std::nullopt;
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto comma = list.find(',', start);
    const std::string range =
        list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    unsigned lo = 0;
    unsigned hi = 0;
    char tail = 0;
    if (std::sscanf(range.c_str(), "%u-%u%c", &lo, &hi, &tail) == 2 && hi >= lo &&
        hi - lo < 65536) {
      for (unsigned c = lo; c <= hi; ++c) cpus.push_back(c);
    } else if (std::sscanf(range.c_str(), "%u%c", &lo, &tail) == 1) {
      cpus.push_back(lo);
    } else {
      return std::nullopt;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return cpus;
}

nlohmann::json unavailable(const std::string& why) { return {{"unavailable", why}}; }

}  // namespace jbench::provenance_detail
