// Appending to a writer's ledger: one write() per line, then fdatasync, so an entry is durable
// before the writer moves on. A SIGKILL can still cut an append; the next incarnation then
// terminates the torn line before writing its own (see ledger_file.h).
#pragma once

#include <string>
#include <string_view>

namespace jbench::oracle::ledger_worker {

class LedgerAppender {
 public:
  LedgerAppender() = default;
  ~LedgerAppender();
  LedgerAppender(const LedgerAppender&) = delete;
  LedgerAppender& operator=(const LedgerAppender&) = delete;

  bool open(const std::string& path, std::string& error);
  // Writes `text` as given and fdatasyncs it.
  bool append_raw(std::string_view text, std::string& error);
  bool append_line(std::string_view line, std::string& error);

 private:
  int fd_ = -1;
};

}  // namespace jbench::oracle::ledger_worker
