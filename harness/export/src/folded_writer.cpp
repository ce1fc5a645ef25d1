#include "folded_writer.h"

#include <fmt/format.h>

namespace jbench::exports {

void append_frame(std::string& out, std::string_view name) {
  for (const char c : name) {
    out.push_back(c == ';' ? ',' : (c == '\n' || c == '\r') ? ' ' : c);
  }
}

const std::string& FoldedWriter::prefix(const TrackId& track) {
  auto [it, inserted] = prefixes_.try_emplace(track);
  if (inserted) {
    const RunInput& run = *runs_.at(track.run);
    std::string who = fmt::format("process pid {}", track.pid);
    for (const Incarnation& inc : run.cohort) {
      if (inc.pid == track.pid && inc.start_time_ticks == track.start_time_ticks) {
        who = inc.worker ? fmt::format("worker {} pid {}", *inc.worker, track.pid)
                         : fmt::format("forked pid {}", track.pid);
      }
    }
    append_frame(it->second, run.id);
    it->second += ';';
    append_frame(it->second, who);
    it->second += fmt::format(";tid {}", track.tid);
  }
  return it->second;
}

void FoldedWriter::span_closed(const TrackId& track, std::span<const std::string_view> frames,
                               std::uint64_t self_ns) {
  key_ = prefix(track);
  for (const auto frame : frames) {
    key_ += ';';
    append_frame(key_, frame);
  }
  self_ns_[key_] += self_ns;
}

std::uint64_t FoldedWriter::write(OutputFile& out) const {
  for (const auto& [stack, ns] : self_ns_) {
    std::string& b = out.buffer();
    b += stack;
    b += ' ';
    b += std::to_string(ns);
    b += '\n';
    out.maybe_flush();
  }
  return self_ns_.size();
}

}  // namespace jbench::exports
