#include "registration.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "jbench/common/runtime_id.h"

namespace jbench::oracle::ledger_worker {

void emit_line(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

bool say_hello_and_wait(const WorkerOptions& options, std::string& error) {
  const std::optional<std::string> runtime_id = make_runtime_id();
  if (!runtime_id) {
    error = "getrandom failed: no runtime id";
    return false;
  }
  emit_line(nlohmann::json{{"protocol", 1},
                           {"role", options.role},
                           {"index", options.index},
                           {"incarnation", options.incarnation},
                           {"pid", static_cast<long>(::getpid())},
                           {"runtime_id", *runtime_id}}
                .dump());
  return wait_for_word("go", error);
}

bool wait_for_word(const char* word, std::string& error) {
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
  if (line != word) {
    error = c == '\n' ? std::string("expected '") + word + "' on stdin"
                      : std::string("stdin closed before '") + word + "'";
    return false;
  }
  return true;
}

}  // namespace jbench::oracle::ledger_worker
