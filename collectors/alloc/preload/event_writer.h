// The raw file of one process in the jbench.events v1 format (docs/events.md,
// docs/collectors/alloc.md): a header written when the file is claimed, then at exit the
// alloc_sample records, an overflow record if samples were lost, one alloc_summary record and
// the trailer.
#pragma once

#include <cstdint>

#include "line_writer.h"
#include "process_identity.h"
#include "sample_buffer.h"
#include "settings.h"

namespace jb_alloc {

struct FileFacts {
  const Settings* settings = nullptr;
  Incarnation self;
  std::int64_t ppid = 0;
  // "start" (the process image began with the library loaded: an exec) or "fork" (a fork child
  // of a sampled process).
  const char* origin = "start";
  std::uint64_t seed = 0;
};

void write_header(LineWriter& out, const FileFacts& facts) noexcept;

// Everything after the header: records, overflow, summary, trailer (ended: exit 0).
void write_body(LineWriter& out, const FileFacts& facts, const SampleBuffer& buffer,
                const ClosedBuffer& closed) noexcept;

// The trailer of a file that holds no samples because the collector could not run: `code` 2
// for bad settings, 3 for an internal failure, and the reason.
void write_failure_trailer(LineWriter& out, int code, const char* reason) noexcept;

}  // namespace jb_alloc
