// Protocol v1 framing and exit codes (docs/worker-protocol.md): one JSON object per line,
// '\n'-terminated, on stdin (harness -> worker) and stdout (worker -> harness). Raw read(2) and
// write(2) on the descriptors: no stdio buffering can hold a message back, and each line leaves
// in one write when the pipe has room.
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace jbench::sqlite_workload {

inline constexpr int kProtocolVersion = 1;
inline constexpr std::size_t kMaxLineBytes = 1 << 20;

// The worker's exit codes; the harness tells them apart, so they never change meaning.
enum ExitCode : int {
  kExitOk = 0,             // bye was sent
  kExitInternal = 1,       // the worker itself failed (e.g. getrandom); see stderr
  kExitProtocolError = 2,  // bad message, bad configure or unusable database; an error was sent
  kExitStdinEof = 3,       // stdin ended before the result was delivered
  kExitStdoutClosed = 4,   // stdout could not be written (the harness is gone)
};

class LineReader {
 public:
  explicit LineReader(int fd) : fd_(fd) {}

  enum class Status { line, eof, too_long, read_error };
  // Blocks until a whole line (returned without its '\n'), EOF or an error. Bytes after the
  // last '\n' at EOF are a torn message and are reported as EOF, never parsed.
  Status next(std::string& line);
  int last_errno() const { return errno_; }

 private:
  int fd_;
  std::string buffer_;
  int errno_ = 0;
};

// Serialises `message` and writes it plus '\n', retrying short writes and EINTR. False when the
// line could not be written completely (EPIPE once the reader has gone).
bool write_json_line(int fd, const nlohmann::json& message);

}  // namespace jbench::sqlite_workload
