// Reading what the generated D program printed (dtrace_script.h lists its lines) and what
// dtrace itself said on stderr about events it lost. Pure: lines in, observations out, so it is
// tested on checked-in fixture text. DTrace's consumer prints each CPU's buffer in turn, so lines
// are not in time order (a phase marker may follow a later one): nothing here depends on it.
//
//   DtraceReader reader;
//   for (line : stdout) reader.line(line);
//   for (line : stderr) reader.stderr_line(line);
//   ProgramObservations obs = reader.finish();
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "program_lines.h"

namespace jbench::collectors::syscall_detail {

class DtraceReader {
 public:
  void line(std::string_view text);
  // dtrace's own report: "dtrace: 12 drops on CPU 1", "dtrace: 3 dynamic variable drops",
  // "dtrace: 2 aggregation drops on CPU 0" are lost events; "dtrace: error on enabled probe ..."
  // (an action that faulted) loses its event too, and is quoted as a problem.
  void stderr_line(std::string_view text);
  ProgramObservations finish();
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  void aggregation(std::string_view text);
  void histogram_row(std::string_view text);

  ProgramLineReader lines_;
  std::optional<TotalsKey> histogram_;  // the key whose quantize() rows follow
  std::vector<std::string> errors_;
};

}  // namespace jbench::collectors::syscall_detail
