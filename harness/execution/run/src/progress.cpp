#include "progress.h"

#include <fmt/format.h>

#include <ostream>

namespace jbench::run {

Progress::Progress(std::ostream& out, bool terminal, std::vector<std::string> kinds)
    : out_(out), terminal_(terminal), kinds_(std::move(kinds)) {}

// The runs left, each at its kind's average so far (the overall average for a kind not seen).
std::string Progress::eta() const {
  if (all_.runs == 0) return "?";
  std::uint64_t left_ns = 0;
  for (std::size_t i = next_; i < kinds_.size(); ++i) {
    const auto it = by_kind_.find(kinds_[i]);
    const Spent& s = it != by_kind_.end() ? it->second : all_;
    left_ns += s.ns / s.runs;
  }
  const std::uint64_t left_s = left_ns / 1'000'000'000ULL;
  if (left_s < 60) return fmt::format("{}s", left_s);
  if (left_s < 3600) return fmt::format("{}m{:02}s", left_s / 60, left_s % 60);
  return fmt::format("{}h{:02}m", left_s / 3600, (left_s % 3600) / 60);
}

void Progress::starting(std::size_t index, const std::string& run_id) {
  if (!terminal_) return;
  out_ << fmt::format("\r\033[K[{}/{}] {}  ETA {}", index + 1, kinds_.size(), run_id, eta())
       << std::flush;
  line_open_ = true;
}

void Progress::finished(std::size_t index, const std::string& run_id, const std::string& status,
                        const std::string& reason, std::uint64_t elapsed_ns) {
  ++finished_;
  next_ = index + 1;
  all_.runs++;
  all_.ns += elapsed_ns;
  if (index < kinds_.size()) {
    Spent& k = by_kind_[kinds_[index]];
    k.runs++;
    k.ns += elapsed_ns;
  }
  const std::size_t total = kinds_.size();
  const std::string seconds = fmt::format("{:.1f} s", static_cast<double>(elapsed_ns) / 1e9);
  if (terminal_) {
    if (status == "ok") return;  // the next progress line replaces it
    note(fmt::format("[{}/{}] {} {}: {}", index + 1, total, run_id, status, reason));
    return;
  }
  out_ << fmt::format("run {}/{} {} {} {}{}  ETA {}\n", index + 1, total, run_id, status, seconds,
                      reason.empty() ? "" : ": " + reason, eta());
}

void Progress::note(const std::string& line) {
  if (line_open_) out_ << "\r\033[K";
  line_open_ = false;
  out_ << line << '\n';
}

void Progress::done() {
  if (line_open_) out_ << "\r\033[K" << std::flush;
  line_open_ = false;
}

}  // namespace jbench::run
