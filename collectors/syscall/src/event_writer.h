// Writes raw/syscall.events.jsonl.zst (schema jbench.events v1, docs/events.md; the text
// compressed as one zstd frame, jbench/events/compressed_file.h): a header, records, a trailer.
// A stream is one thread of one incarnation; `seq` counts from 0 within each.
//
// The file is bounded in its text: a record that would take it past `max_bytes` is not written; an
// `overflow` record takes its place and every later record is counted as dropped, so a reader
// sees where the bound was hit. No record is ever cut.
//
// Lines are nlohmann::json objects (keys in sorted order, nlohmann's escaping), as the files and
// the tests have always had them; the names and 64-bit decimals are jbench::events' shared ones
// (jbench/events/event_text.h).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
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

  // Opens the file and writes the header. Returns the error, or "".
  std::string open(const nlohmann::json& header);
  // `record` gets kind, seq, pid, start_time_ticks, tid and t_ns (as a decimal string) here.
  void record(pid_t pid, std::uint64_t start_time_ticks, pid_t tid, std::uint64_t t_ns,
              nlohmann::json record);
  // Writes the trailer and closes. Returns the error, or "".
  std::string close(std::uint64_t dropped, std::uint64_t malformed, const nlohmann::json& ended);

  std::uint64_t records() const { return records_; }
  std::uint64_t refused() const { return refused_; }  // not written: past the bound
  bool overflowed() const { return overflowed_; }

 private:
  bool put(const std::string& line);

  std::string path_;
  std::uint64_t max_;
  events::CompressedFile file_;
  bool opened_ = false;
  std::uint64_t bytes_ = 0;
  std::uint64_t records_ = 0;
  std::uint64_t refused_ = 0;
  bool overflowed_ = false;
  bool write_failed_ = false;
  std::map<std::tuple<pid_t, std::uint64_t, pid_t>, std::uint64_t> next_seq_;
};

}  // namespace jbench::collectors::syscall_detail
