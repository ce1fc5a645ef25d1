#include "jbench/oracle/ledger_phase.h"

#include <fcntl.h>
#include <unistd.h>

namespace jbench::oracle {

std::string_view to_string(WriterPhase phase) {
  switch (phase) {
    case WriterPhase::starting:
      return "starting";
    case WriterPhase::between:
      return "between_transactions";
    case WriterPhase::in_transaction:
      return "in_transaction";
    case WriterPhase::committing:
      return "in_commit";
    case WriterPhase::ledgering:
      return "after_commit_before_ledger";
    case WriterPhase::finished:
      return "finished";
  }
  return "unknown";
}

std::string phase_path_for(const std::string& ledger_path) { return ledger_path + ".phase"; }

std::optional<WriterPhase> read_writer_phase(const std::string& phase_path) {
  const int fd = ::open(phase_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::uint8_t byte = 0xff;
  const ssize_t n = ::pread(fd, &byte, 1, 0);
  ::close(fd);
  if (n != 1 || byte > static_cast<std::uint8_t>(WriterPhase::finished)) return std::nullopt;
  return static_cast<WriterPhase>(byte);
}

}  // namespace jbench::oracle
