#include "instruction_count.h"

#include <atomic>
#include <cstring>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define JB_HAVE_CALLGRIND 1
#endif

namespace jb_detail {

void count_phase(const char* name) {
#ifdef JB_HAVE_CALLGRIND
  // Callgrind starts with instrumentation and collection off (jbench runs it with
  // --instr-atstart=no --collect-atstart=no): both go on when the measure phase begins and off
  // when the next phase does. Phases change on one thread at a time; the flag keeps a repeated
  // name from toggling twice.
  static std::atomic<bool> counting{false};
  const bool measure = name != nullptr && std::strcmp(name, "measure") == 0;
  if (measure == counting.load(std::memory_order_relaxed) || RUNNING_ON_VALGRIND == 0) return;
  if (measure) {
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_TOGGLE_COLLECT;
  } else {
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_STOP_INSTRUMENTATION;
  }
  counting.store(measure, std::memory_order_relaxed);
#else
  (void)name;
#endif
}

}  // namespace jb_detail
