// Reading a raw file line by line through one fixed buffer, for every reader of jbench.events
// files (the validator, the report, the export): memory stays flat however large the file, and a
// line longer than the limit is refused without being held. A file written compressed
// (jbench/events/compressed_file.h) is read as the text it holds; a damaged or cut one ends
// the reading with an error after the lines that could be read.
//
//   LineRead r = for_each_line(path, kMaxLineBytes, [&](std::size_t number, std::string_view line)
//   {
//     return handle(line);          // false stops the reading
//   }, [&](std::size_t number) { overlong(number); });
//   if (!r.error.empty()) ...       // the file could not be opened or read
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace jbench::events {

struct LineRead {
  std::size_t lines = 0;    // lines seen, the overlong ones included
  std::uint64_t bytes = 0;  // bytes of text read (after decompression)
  bool stopped = false;     // on_line returned false
  std::string error;        // why the file could not be read; empty on success
};

// `on_line` gets each line without its '\n' (a last line without one too), numbered from 1.
// `on_overlong` gets the number of each line longer than `max_line_bytes`, which is skipped.
LineRead for_each_line(const std::string& path, std::size_t max_line_bytes,
                       const std::function<bool(std::size_t, std::string_view)>& on_line,
                       const std::function<void(std::size_t)>& on_overlong);

}  // namespace jbench::events
