#include "jbench/oracle/ledger_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jbench::oracle {

LedgerFile parse_ledger_text(std::string path, std::string_view text) {
  LedgerFile file;
  file.path = std::move(path);
  file.exists = true;
  file.ends_with_newline = text.empty() || text.back() == '\n';
  std::size_t line_number = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line_text = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_number;
    // A line without its '\n' was cut by a kill even if what is there happens to parse: the
    // writer fsyncs whole lines only, so the entry was never durable as written.
    auto parsed = nl == std::string_view::npos ? std::nullopt : parse_ledger_line(line_text);
    if (parsed) {
      file.lines.push_back(std::move(*parsed));
      continue;
    }
    file.torn.push_back(
        {line_number, file.lines.size(), std::string(line_text.substr(0, 200)), false});
  }
  for (auto& torn : file.torn) {
    const bool at_end = torn.before_entry == file.lines.size();
    torn.tolerated = at_end || file.lines[torn.before_entry].kind == LedgerLineKind::start;
  }
  return file;
}

Result<LedgerFile> read_ledger_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      LedgerFile empty;
      empty.path = path;
      return empty;
    }
    return Error{"cannot open ledger '" + path + "': " + std::strerror(errno), errno};
  }
  std::string text;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return Error{"cannot read ledger '" + path + "': " + std::strerror(err), err};
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return parse_ledger_text(path, text);
}

}  // namespace jbench::oracle
