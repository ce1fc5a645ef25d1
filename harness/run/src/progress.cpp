#include "progress.h"

#include <fmt/format.h>

#include <ostream>

namespace jbench::run {

Progress::Progress(std::ostream& out, bool terminal, std::size_t total)
    : out_(out), terminal_(terminal), total_(total) {}

std::string Progress::eta() const {
  if (finished_ == 0) return "?";
  const std::uint64_t left_s = spent_ns_ / finished_ * (total_ - finished_) / 1'000'000'000ULL;
  if (left_s < 60) return fmt::format("{}s", left_s);
  if (left_s < 3600) return fmt::format("{}m{:02}s", left_s / 60, left_s % 60);
  return fmt::format("{}h{:02}m", left_s / 3600, (left_s % 3600) / 60);
}

void Progress::starting(std::size_t index, const std::string& run_id) {
  if (!terminal_) return;
  out_ << fmt::format("\r\033[K[{}/{}] {}  ETA {}", index + 1, total_, run_id, eta()) << std::flush;
  line_open_ = true;
}

void Progress::finished(std::size_t index, const std::string& run_id, const std::string& status,
                        const std::string& reason, std::uint64_t elapsed_ns) {
  ++finished_;
  spent_ns_ += elapsed_ns;
  const std::string seconds = fmt::format("{:.1f} s", static_cast<double>(elapsed_ns) / 1e9);
  if (terminal_) {
    if (status == "ok") return;  // the next progress line replaces it
    note(fmt::format("[{}/{}] {} {}: {}", index + 1, total_, run_id, status, reason));
    return;
  }
  out_ << fmt::format("run {}/{} {} {} {}{}\n", index + 1, total_, run_id, status, seconds,
                      reason.empty() ? "" : ": " + reason);
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
