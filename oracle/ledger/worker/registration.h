// The worker's side of registration: say hello (pid, a fresh 128-bit runtime id) on stdout and
// block until the driver releases it with "go" on stdin, so no work happens before the driver
// has recorded the incarnation.
#pragma once

#include <string>

#include "worker_options.h"

namespace jbench::oracle::ledger_worker {

// False when stdin closed or said anything but "go": the worker must then exit without work.
bool say_hello_and_wait(const WorkerOptions& options, std::string& error);

// Blocks until the driver says `word` on stdin. False when stdin closed or said anything else.
bool wait_for_word(const char* word, std::string& error);

// One JSON line on stdout, flushed.
void emit_line(const std::string& line);

}  // namespace jbench::oracle::ledger_worker
