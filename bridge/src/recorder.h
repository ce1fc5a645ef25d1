// The bridge's life in a process: jb_init_from_env reads the environment, creates the raw file
// and starts the writer; fork gives the child fresh streams writing to the same file; jb_shutdown
// (also at exit) drains every ring and, in the process that created the file, writes the trailer.
// Private.
#pragma once

#include <cstdint>

#pragma GCC visibility push(hidden)

namespace jb_detail {

int init_from_env() noexcept;
void shutdown() noexcept;

// This process's next canary number (0, 1, ...).
std::uint64_t next_canary() noexcept;
// The 128-bit runtime id (zero until initialised).
const std::uint8_t* runtime_id() noexcept;

}  // namespace jb_detail

#pragma GCC visibility pop
