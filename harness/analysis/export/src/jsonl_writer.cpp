#include "jsonl_writer.h"

#include <fmt/format.h>

#include "jbench/events/event_file.h"
#include "jbench/events/line_reader.h"

namespace jbench::exports {

JsonlWritten write_raw_lines(const BundleInput& bundle, OutputFile& out) {
  JsonlWritten written;
  for (const RunInput& run : bundle.runs) {
    for (const std::string& path : run.raw_files) {
      std::size_t overlong = 0;
      const auto read = events::for_each_line(
          path, kMaxLineBytes,
          [&](std::size_t, std::string_view line) {
            out.buffer().append(line).push_back('\n');
            out.maybe_flush();
            ++written.lines;
            return true;
          },
          [&](std::size_t number) {
            if (overlong == 0) overlong = number;
          });
      // A valid bundle has neither: the validator refuses both (events.unreadable, .malformed).
      if (!read.error.empty()) written.error = fmt::format("{}: {}", path, read.error);
      if (overlong > 0) {
        written.error =
            fmt::format("{}:{}: a line longer than {} bytes", path, overlong, kMaxLineBytes);
      }
      if (!written.error.empty()) return written;
    }
  }
  return written;
}

}  // namespace jbench::exports
