// What jbench reads of a callgrind output file (valgrind's "callgrind format"): the program it
// ran, its pid, the events counted and their totals, and how many calls entered the C library's
// allocation functions. Pure over the file's text.
//
//   auto totals = parse_callgrind_totals(text);   // nullopt: no "events:" and "totals:" lines
//   totals->instructions();                       // the "Ir" total
//   totals->allocations;                          // calls into malloc, calloc, realloc, ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"

namespace jbench::collectors {

struct CallgrindTotals {
  std::int64_t pid = 0;
  std::string command;                // the "cmd:" line
  std::vector<std::string> events;    // "events: Ir ..." in order
  std::vector<std::uint64_t> totals;  // one per event, from "totals:" (else "summary:")
  // Calls that entered an allocation function (kAllocationFunctions) while callgrind
  // collected: the sum of the "calls=" lines whose called function ("cfn=") is one of them.
  // An allocation made inside another (strdup's malloc) is one call, of the inner function.
  std::uint64_t allocations = 0;
  // The "Ir" (instructions read, i.e. executed) total, if counted.
  std::optional<std::uint64_t> instructions() const;
};

// The C library's functions that return new memory, the set the alloc collector interposes
// (docs/collectors/alloc.md), and glibc's internal names for the same entry points.
bool is_allocation_function(std::string_view name);

std::optional<CallgrindTotals> parse_callgrind_totals(std::string_view text);

// The same of a file as a run keeps it, plain or compressed (jbench/events/compressed_file.h);
// an input error saying why when it cannot be read or holds no totals.
Result<CallgrindTotals> read_callgrind_totals(const std::string& path);

// The valgrind command a worker runs in: callgrind with instrumentation and collection off until
// the bridge's measure phase switches them on, following exec (a launcher script that execs its
// runtime keeps its pid), its output file `out_pattern` (callgrind's %p is the pid).
std::vector<std::string> callgrind_command(const std::string& valgrind,
                                           const std::string& out_pattern);

}  // namespace jbench::collectors
