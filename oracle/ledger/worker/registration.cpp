#include "registration.h"

#include <sys/random.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace jbench::oracle::ledger_worker {
namespace {

std::string make_runtime_id() {
  std::array<std::uint8_t, 16> bytes{};
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = getrandom(bytes.data() + done, bytes.size() - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return {};
    done += static_cast<std::size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (std::uint8_t b : bytes) {
    hex.push_back(kHex[b >> 4]);
    hex.push_back(kHex[b & 0xf]);
  }
  return hex;
}

}  // namespace

void emit_line(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

bool say_hello_and_wait(const WorkerOptions& options, std::string& error) {
  const std::string runtime_id = make_runtime_id();
  if (runtime_id.empty()) {
    error = "getrandom failed: no runtime id";
    return false;
  }
  emit_line(nlohmann::json{{"protocol", 1},
                           {"role", options.role},
                           {"index", options.index},
                           {"incarnation", options.incarnation},
                           {"pid", static_cast<long>(::getpid())},
                           {"runtime_id", runtime_id}}
                .dump());
  // Byte by byte, not through stdio: a buffered read could swallow a later "stop" that the
  // reader then polls stdin for.
  std::string line;
  char c = 0;
  while (line.size() < 64) {
    const ssize_t n = ::read(STDIN_FILENO, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || c == '\n') break;
    line.push_back(c);
  }
  if (line != "go") {
    error = c == '\n' ? "expected 'go' on stdin" : "stdin closed before release";
    return false;
  }
  return true;
}

}  // namespace jbench::oracle::ledger_worker
