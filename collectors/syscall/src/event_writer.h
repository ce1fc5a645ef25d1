// Writes raw/syscall.events.jsonl.zst (schema jbench.events v1, docs/events.md; the text
// compressed as one zstd frame, jbench/events/compressed_file.h): a header, records, a trailer.
// A stream is one thread of one incarnation; `seq` counts from 0 within each.
//
// The file is bounded in its text: a record that would take it past `max_bytes` is not written; an
// `overflow` record takes its place and every later record is counted as dropped, so a reader
// sees where the bound was hit. No record is ever cut.
//
// A record is composed as text, envelope first (jb_events_lines.h, as the trace bridge and the
// allocation sampler write theirs), with jbench::events' shared escaping and 64-bit decimals
// (jbench/events/event_text.h): a full run writes millions, and building a JSON object per
// record cost more than the run's measure phase.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <tuple>

#include "jbench/events/compressed_file.h"

namespace jbench::collectors::syscall_detail {

class EventWriter {
 public:
  EventWriter(std::string path, std::uint64_t max_bytes)
      : path_(std::move(path)), max_(max_bytes) {}
  ~EventWriter() = default;
  EventWriter(const EventWriter&) = delete;
  EventWriter& operator=(const EventWriter&) = delete;

  // Opens the file and writes the header.
  jbench::Status open(const nlohmann::json& header);
  // One record of `type`: the envelope (kind, type, seq, pid, start_time_ticks, tid, t_ns) is
  // written here, then `fields`, the text of the type's own fields, each with its leading comma
  // (",\"syscall\":\"read\",\"fd\":3"), or "".
  void record(pid_t pid, std::uint64_t start_time_ticks, pid_t tid, std::uint64_t t_ns,
              std::string_view type, std::string_view fields);
  // Writes the trailer and closes.
  jbench::Status close(std::uint64_t dropped, std::uint64_t malformed, const nlohmann::json& ended);

  std::uint64_t records() const { return records_; }
  std::uint64_t refused() const { return refused_; }  // not written: past the bound
  bool overflowed() const { return overflowed_; }

 private:
  std::uint64_t& next_seq(pid_t pid, std::uint64_t start_time_ticks, pid_t tid);
  bool put(std::string& line);  // appends the newline and writes

  std::string path_;
  std::uint64_t max_;
  events::CompressedFile file_;
  bool opened_ = false;
  std::uint64_t bytes_ = 0;
  std::uint64_t records_ = 0;
  std::uint64_t refused_ = 0;
  bool overflowed_ = false;
  bool write_failed_ = false;
  using StreamKey = std::tuple<pid_t, std::uint64_t, pid_t>;
  std::map<StreamKey, std::uint64_t> next_seq_;
  StreamKey last_stream_{};            // consecutive records are mostly of one thread:
  std::uint64_t* last_seq_ = nullptr;  // its counter, found once (map nodes do not move)
  std::string line_;                   // the line being composed, reused
};

}  // namespace jbench::collectors::syscall_detail
