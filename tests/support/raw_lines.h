// The lines of a raw event file as every reader of jbench reads it (plain text or compressed,
// jbench/events/line_reader.h), for tests that look at what a collector wrote.
//
//   for (const std::string& line : raw_lines(dir + "/raw/syscall.events.jsonl.zst")) ...
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace jbench::test {

// Every line, without its newline. Throws std::runtime_error naming the file when it cannot be
// read whole (missing, damaged, cut, or a line over 16 MiB).
std::vector<std::string> raw_lines(const std::string& path);

// Rewrites a bundle in the form jbench kept before raw files were compressed: every raw file a
// run's collectors name as "<name>.zst" becomes the plain text file <name>, and run.json names
// it so. Gives how many files were written back; the caller rewrites SHA256SUMS.
std::size_t write_back_as_plain_text(const std::string& bundle);

}  // namespace jbench::test
