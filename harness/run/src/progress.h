// What a person watching `jbench run` sees: one rewritten line on a terminal (run i/N, the run,
// the ETA), plain lines otherwise (CI logs). Private to jbench::run.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

namespace jbench::run {

class Progress {
 public:
  Progress(std::ostream& out, bool terminal, std::size_t total);
  void starting(std::size_t index, const std::string& run_id);
  void finished(std::size_t index, const std::string& run_id, const std::string& status,
                const std::string& reason, std::uint64_t elapsed_ns);
  void note(const std::string& line);  // a line of its own, not lost under the progress line
  void done();

 private:
  std::string eta() const;

  std::ostream& out_;
  bool terminal_;
  std::size_t total_;
  std::size_t finished_ = 0;
  std::uint64_t spent_ns_ = 0;
  bool line_open_ = false;
};

}  // namespace jbench::run
