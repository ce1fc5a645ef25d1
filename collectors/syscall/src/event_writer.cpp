#include "event_writer.h"

#include <fmt/format.h>

#include "jbench/events/event_text.h"

namespace jbench::collectors::syscall_detail {

using Json = nlohmann::json;

bool EventWriter::put(const std::string& line) {
  if (!file_.write(line) || !file_.write("\n")) {
    write_failed_ = true;
    return false;
  }
  bytes_ += line.size() + 1;
  return true;
}

std::string EventWriter::open(const Json& header) {
  // Never replaces a file: a run writes it once.
  if (std::string error = file_.open(path_); !error.empty()) return error;
  opened_ = true;
  Json h = header;
  h["kind"] = JB_EVENTS_KIND_HEADER;
  if (!put(h.dump())) return file_.close();
  return {};
}

void EventWriter::record(pid_t pid, std::uint64_t start_time_ticks, pid_t tid, std::uint64_t t_ns,
                         Json record) {
  if (!opened_ || write_failed_) return;
  if (overflowed_) {
    ++refused_;
    return;
  }
  std::uint64_t& seq = next_seq_[{pid, start_time_ticks, tid}];
  record["kind"] = JB_EVENTS_KIND_RECORD;
  record["seq"] = events::decimal(seq);
  record["pid"] = pid;
  record["start_time_ticks"] = events::decimal(start_time_ticks);
  record["tid"] = tid;
  record["t_ns"] = events::decimal(t_ns);
  std::string line = record.dump();
  if (bytes_ + line.size() + 1 > max_) {
    // The overflow marker takes this record's place in its stream, so the stream has no gap
    // before it and a reader learns exactly where the bound was hit.
    overflowed_ = true;
    ++refused_;
    const Json overflow = {
        {"kind", JB_EVENTS_KIND_RECORD},
        {"type", "overflow"},
        {"seq", events::decimal(seq)},
        {"pid", pid},
        {"start_time_ticks", events::decimal(start_time_ticks)},
        {"tid", tid},
        {"t_ns", events::decimal(t_ns)},
        {"reason", fmt::format("the output bound of {} bytes was reached", max_)}};
    if (put(overflow.dump())) {
      ++records_;
      ++seq;
    }
    return;
  }
  if (put(line)) {
    ++records_;
    ++seq;
  }
}

std::string EventWriter::close(std::uint64_t dropped, std::uint64_t malformed, const Json& ended) {
  if (!opened_) return "the raw file was never opened";
  const Json trailer = {{"kind", JB_EVENTS_KIND_TRAILER},
                        {"records", records_},
                        {"dropped", dropped + refused_},
                        {"malformed", malformed},
                        {"ended", ended}};
  put(trailer.dump());
  opened_ = false;
  return file_.close();
}

}  // namespace jbench::collectors::syscall_detail
