#include "event_writer.h"

#include <fmt/format.h>

#include "jbench/events/event_text.h"

namespace jbench::collectors::syscall_detail {
namespace {

using Json = nlohmann::json;

// A record's line up to its type's own fields (jb_events_lines.h's envelope).
void envelope(std::string& line, std::string_view type, std::uint64_t seq, pid_t pid,
              std::uint64_t start_time_ticks, pid_t tid, std::uint64_t t_ns) {
  line.append(JB_EVENTS_RECORD_TYPE);
  line.append(type);
  line.append(JB_EVENTS_RECORD_SEQ "\"");
  events::append_decimal(line, seq);
  line.append("\"" JB_EVENTS_RECORD_PID);
  events::append_int(line, pid);
  line.append(JB_EVENTS_RECORD_START_TIME_TICKS "\"");
  events::append_decimal(line, start_time_ticks);
  line.append("\"" JB_EVENTS_RECORD_TID);
  events::append_int(line, tid);
  line.append(JB_EVENTS_RECORD_T_NS "\"");
  events::append_decimal(line, t_ns);
  line.push_back('"');
}

}  // namespace

bool EventWriter::put(std::string& line) {
  line.push_back('\n');
  if (!file_.write(line)) {
    write_failed_ = true;
    return false;
  }
  bytes_ += line.size();
  return true;
}

std::uint64_t& EventWriter::next_seq(pid_t pid, std::uint64_t start_time_ticks, pid_t tid) {
  const StreamKey key{pid, start_time_ticks, tid};
  if (last_seq_ == nullptr || key != last_stream_) {
    last_stream_ = key;
    last_seq_ = &next_seq_[key];
  }
  return *last_seq_;
}

jbench::Status EventWriter::open(const Json& header) {
  // Never replaces a file: a run writes it once.
  if (jbench::Status opened = file_.open(path_); !opened) return opened;
  opened_ = true;
  Json h = header;
  h["kind"] = JB_EVENTS_KIND_HEADER;
  std::string line = h.dump();
  if (!put(line)) return file_.close();
  return {};
}

void EventWriter::record(pid_t pid, std::uint64_t start_time_ticks, pid_t tid, std::uint64_t t_ns,
                         std::string_view type, std::string_view fields) {
  if (!opened_ || write_failed_) return;
  if (overflowed_) {
    ++refused_;
    return;
  }
  std::uint64_t& seq = next_seq(pid, start_time_ticks, tid);
  line_.clear();
  envelope(line_, type, seq, pid, start_time_ticks, tid, t_ns);
  line_.append(fields);
  line_.push_back('}');
  if (bytes_ + line_.size() + 1 > max_) {
    // The overflow marker takes this record's place in its stream, so the stream has no gap
    // before it and a reader learns exactly where the bound was hit.
    overflowed_ = true;
    ++refused_;
    line_.clear();
    envelope(line_, "overflow", seq, pid, start_time_ticks, tid, t_ns);
    line_.append(",\"reason\":");
    events::append_json_string(line_,
                               fmt::format("the output bound of {} bytes was reached", max_));
    line_.push_back('}');
  }
  if (put(line_)) {
    ++records_;
    ++seq;
  }
}

jbench::Status EventWriter::close(std::uint64_t dropped, std::uint64_t malformed,
                                  const Json& ended) {
  if (!opened_) return Error{"the raw file was never opened"};
  const Json trailer = {{"kind", JB_EVENTS_KIND_TRAILER},
                        {"records", records_},
                        {"dropped", dropped + refused_},
                        {"malformed", malformed},
                        {"ended", ended}};
  std::string line = trailer.dump();
  put(line);
  opened_ = false;
  return file_.close();
}

}  // namespace jbench::collectors::syscall_detail
