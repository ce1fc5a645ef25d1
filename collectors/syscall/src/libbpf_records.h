// The raw file of a full-detail run traced by the compiled tracer (`syscall.libbpf.records`):
// the records exactly as the kernel wrote them into the ring (syscall_trace.h), behind a header
// and before a trailer. Little more than a copy of the ring, so the consumer can keep up; read
// back once the run ended into the observations every backend gives.
//
//   header   "JBSCREC1", then u32: header bytes, call, path and drained record bytes, CPUs
//   records  jb_call_record, jb_path_record (after its open's call), jb_drained_record (one per
//            CPU, last of that CPU's)
//   trailer  RecordTrailer (its `type` is kTrailerType)
//
// Host byte order: the file is read back by the jbench that wrote it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "observations.h"

namespace jbench::collectors::syscall_detail {

inline constexpr std::uint32_t kTrailerType = 0x4a42454e;  // "NEBJ": after every record

struct RecordTrailer {
  std::uint32_t type = kTrailerType;
  std::uint32_t cpus = 0;
  std::uint64_t records = 0;       // call and path records written
  std::uint64_t lost = 0;          // the kernel side: failed reservations, summed over CPUs
  std::uint64_t malformed = 0;     // the consumer: records of a wrong size, type or CPU
  std::uint64_t missing = 0;       // submitted by a CPU (its drained record says) but never read
  std::uint64_t refused = 0;       // read but not written: the output bound, or a write error
  std::uint64_t drained_cpus = 0;  // CPUs whose drained record was read
  std::uint64_t unfinished = 0;    // calls under way when tracing ended
};

// The file's first bytes, for the number of possible CPUs.
std::string record_file_header(std::uint32_t cpus);

// Whether `size` bytes of record type `type` are a well-formed record; its CPU is checked apart.
bool record_size_ok(std::uint32_t type, std::size_t size);

struct DecodedRecords {
  std::vector<CallRecord> calls;  // paths paired with their opens
  std::vector<CpuSample> samples;
  std::uint64_t malformed = 0;
  std::vector<std::string> malformed_examples;
  bool has_trailer = false;
  RecordTrailer trailer;
};

// The file's contents back as calls. Anything that is not a whole record, or a trailer that is
// not last, counts as malformed.
DecodedRecords decode_record_file(std::string_view bytes);

}  // namespace jbench::collectors::syscall_detail
