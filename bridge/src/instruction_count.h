// Counted runs (docs/trace-modes.md, "counted"): when the program runs inside valgrind's
// callgrind, instructions are counted while it is in its measure phase and at no other time.
// jb_phase calls this on every phase change, whatever the bridge's mode (a counted run's bridge
// is off). Outside valgrind it is a few instructions that do nothing.
#pragma once

namespace jb_detail {

void count_phase(const char* name);

}  // namespace jb_detail
