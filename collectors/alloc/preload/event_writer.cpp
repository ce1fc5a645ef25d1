#include "event_writer.h"

#include <cmath>

#include "jb_events_lines.h"
#include "jbench/alloc/sample_weight.h"
#include "sampler.h"
#include "site_map.h"

namespace jb_alloc {
namespace {

void write_hex(LineWriter& out, std::uint64_t v) noexcept {
  static const char kHex[] = "0123456789abcdef";
  char digits[16];
  std::size_t n = 0;
  do {
    digits[n++] = kHex[v & 0xF];
    v >>= 4;
  } while (v != 0);
  out.raw("0x");
  while (n > 0) out.raw(&digits[--n], 1);
}

// "site": the object holding the return address and the offset in it
// ("/usr/lib/x86_64-linux-gnu/libstdc++.so.6+0xa8f2c"), stable across runs despite address
// randomisation; the bare address if no file-backed mapping holds it.
void write_site(LineWriter& out, std::uint64_t address) noexcept {
  const char* path = nullptr;
  std::uint64_t offset = 0;
  out.raw(",\"site\":\"");
  if (find_site(address, path, offset)) {
    out.string_body(path).raw("+");
    write_hex(out, offset);
  } else {
    write_hex(out, address);
  }
  out.raw("\"");
}

void record_prefix(LineWriter& out, const char* type, std::uint64_t seq, const Incarnation& self,
                   std::int64_t tid, std::uint64_t t_ns) noexcept {
  out.raw(JB_EVENTS_RECORD_TYPE).raw(type).raw(JB_EVENTS_RECORD_SEQ).decimal(seq);
  out.raw(JB_EVENTS_RECORD_PID)
      .number(self.pid)
      .raw(JB_EVENTS_RECORD_START_TIME_TICKS)
      .decimal(self.start_time_ticks);
  out.raw(JB_EVENTS_RECORD_TID).number(tid).raw(JB_EVENTS_RECORD_T_NS).decimal(t_ns);
}

}  // namespace

void write_header(LineWriter& out, const FileFacts& f) noexcept {
  const Settings& s = *f.settings;
  out.raw(JB_EVENTS_HEADER_BEGIN);
  out.raw("\"collector\":\"alloc\",\"backend\":\"preload\",\"backend_version\":\"1\",");
  out.raw(JB_EVENTS_HEADER_CLOCK "\"units\":{\"t_ns\":\"ns\",\"bytes\":\"bytes\",");
  out.raw("\"mean_bytes\":\"bytes\",\"estimated_bytes\":\"bytes\",");
  out.raw("\"dropped_estimated_bytes\":\"bytes\",\"first_drop_ns\":\"ns\",\"samples\":\"count\",");
  out.raw("\"recorded\":\"count\",\"dropped\":\"count\",\"buffer_samples\":\"count\"},");
  out.raw(JB_EVENTS_HEADER_RUN_ID).string(s.run_id).raw(JB_EVENTS_HEADER_BOOT_ID).string(s.boot_id);
  // The incarnation that owns the file: how a later exec of the same process recognises it.
  out.raw(",\"pid\":").number(f.self.pid);
  out.raw(",\"start_time_ticks\":").decimal(f.self.start_time_ticks);
  out.raw(",\"ppid\":").number(f.ppid).raw(",\"origin\":\"").raw(f.origin).raw("\"");
  out.raw(",\"sampling\":{\"scheme\":\"poisson-bytes\",\"mean_bytes\":").decimal(s.mean_bytes);
  out.raw(",\"seed\":")
      .decimal(f.seed)
      .raw(",\"buffer_samples\":")
      .number(static_cast<std::uint64_t>(s.buffer_samples));
  out.raw("}}\n");
}

void write_body(LineWriter& out, const FileFacts& f, const SampleBuffer& buffer,
                const ClosedBuffer& closed) noexcept {
  const std::uint64_t mean = f.settings->mean_bytes;
  std::uint64_t records = 0;
  std::uint64_t lost = 0;  // reserved but never published: a thread racing with exit
  double estimated = 0;
  load_site_map();
  // Threads that reserved a slot just before the buffer closed get 50 ms, in all, to publish.
  const std::uint64_t deadline = monotonic_ns() + 50'000'000;
  for (std::uint64_t i = 0; i < closed.filled; ++i) {
    const Sample* s = buffer.published(i, deadline);
    if (!s) {
      ++lost;
      continue;
    }
    record_prefix(out, "alloc_sample", s->seq, f.self, s->tid, s->t_ns);
    out.raw(",\"bytes\":").decimal(s->bytes);
    out.raw(",\"call\":\"").raw(call_name(s->call)).raw("\"");
    if (s->site != 0) write_site(out, s->site);
    out.raw(JB_EVENTS_LINE_END);
    estimated += jbench::alloc::sample_weight(s->bytes, mean);
    ++records;
  }
  const Drops drops = sampler_drops();
  const std::uint64_t dropped = closed.dropped + lost;
  // The writer's own records go on the writing thread's stream, after its samples.
  const StreamPosition pos = take_stream_seqs(dropped > 0 ? 2 : 1);
  const std::uint64_t now = monotonic_ns();
  std::uint64_t seq = pos.seq;
  if (dropped > 0) {
    record_prefix(out, "overflow", seq++, f.self, pos.tid, now);
    out.raw(",\"dropped\":").decimal(dropped);
    out.raw(",\"first_drop_ns\":").decimal(drops.first_drop_ns).raw(JB_EVENTS_LINE_END);
    ++records;
  }
  record_prefix(out, "alloc_summary", seq, f.self, pos.tid, now);
  out.raw(",\"mean_bytes\":").decimal(mean).raw(",\"seed\":").decimal(f.seed);
  out.raw(",\"samples\":").decimal(closed.filled - lost + dropped);
  out.raw(",\"recorded\":").decimal(closed.filled - lost);
  out.raw(",\"dropped\":").decimal(dropped);
  out.raw(",\"estimated_bytes\":").decimal(static_cast<std::uint64_t>(std::llround(estimated)));
  out.raw(",\"dropped_estimated_bytes\":").decimal(drops.weight_bytes).raw(JB_EVENTS_LINE_END);
  ++records;
  out.raw(JB_EVENTS_TRAILER_RECORDS).number(records);
  out.raw(JB_EVENTS_TRAILER_DROPPED).number(dropped);
  out.raw(JB_EVENTS_TRAILER_CLEAN_END);
}

void write_failure_trailer(LineWriter& out, int code, const char* reason) noexcept {
  out.raw(JB_EVENTS_TRAILER_RECORDS "0" JB_EVENTS_TRAILER_DROPPED "0" JB_EVENTS_TRAILER_EXIT_CODE)
      .number(static_cast<std::int64_t>(code));
  out.raw("},\"reason\":").string(reason).raw(JB_EVENTS_LINE_END);
}

}  // namespace jb_alloc
