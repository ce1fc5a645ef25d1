// Reading what the generated D program printed (dtrace_script.h lists its lines) and what
// dtrace itself said on stderr about events it lost. A sample ("X <pid> <tid> <t> <phase> <role>
// <in_kernel>") is followed by a blank line and ustack()'s rows, leaf first, indented: kept as
// DTrace wrote them ("libc.so.6`cfree+0x37", "dash`0x55acc7264678", "0x55acfe6cbac8"), for the
// backend to name against the process's mappings. Pure: lines in, observations out, so it is
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

// One row of ustack() as DTrace writes it: "libc.so.6`cfree+0x37" (a symbol it found),
// "dash`0x55acc7264678" (an address in a module without one), "0x55acfe6cbac8" (an address).
struct DtraceFrame {
  std::string module;
  std::string symbol;         // empty: DTrace named no symbol
  std::uint64_t address = 0;  // when it wrote an address
};
DtraceFrame parse_dtrace_frame(std::string_view row);

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
  void sample(std::string_view text);
  bool stack_row(std::string_view text);

  ProgramLineReader lines_;
  std::optional<TotalsKey> histogram_;  // the key whose quantize() rows follow
  CpuSample* stack_ = nullptr;          // the sample whose ustack() rows follow
  std::vector<std::string> errors_;
};

}  // namespace jbench::collectors::syscall_detail
