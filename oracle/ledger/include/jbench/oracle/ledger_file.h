// Reading a writer's ledger file as a whole, tolerating what a SIGKILL can leave.
//
// A kill in the middle of an append can leave a final line without its '\n' (or cut short).
// The next incarnation terminates it with a '\n' before writing its own start line, so a torn
// line is either the last line of the file or directly followed by a start line. Anything else
// unparseable (a torn line followed by more of the same incarnation's entries) is corruption.
//
//   auto ledger = read_ledger_file("/tmp/storm/writer-0.ledger");
//   if (ledger) for (const auto& line : ledger->lines) ...
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/ledger_line.h"

namespace jbench::oracle {

struct TornLedgerLine {
  std::size_t line_number = 0;   // 1-based, in the file
  std::size_t before_entry = 0;  // how many parsed lines precede it
  std::string text;              // as found (cut to 200 bytes)
  // At the end of the file or followed by a start line: what a kill mid-append leaves.
  bool tolerated = false;
};

struct LedgerFile {
  std::string path;
  std::vector<LedgerLine> lines;  // the well-formed lines, in file order
  std::vector<TornLedgerLine> torn;
  bool ends_with_newline = true;  // false: the last append was cut (or the file is torn)
  bool exists = false;            // a writer killed before its first append leaves no file
};

// A missing file is an empty ledger (exists = false); an unreadable one is an error.
Result<LedgerFile> read_ledger_file(const std::string& path);
// The same, on text already in memory (tests, and the reader above).
LedgerFile parse_ledger_text(std::string path, std::string_view text);

}  // namespace jbench::oracle
