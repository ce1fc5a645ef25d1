// What a person watching `jbench run` sees: one rewritten line on a terminal (run i/N, the run,
// the ETA), plain lines otherwise (CI logs), each with the ETA too. Private to jbench::run.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace jbench::run {

class Progress {
 public:
  // `kinds`: one label per run in plan order (its trace mode): runs of a kind take alike long
  // (a traced run pays its tracer's attach), so the ETA averages each kind on its own.
  Progress(std::ostream& out, bool terminal, std::vector<std::string> kinds);
  void starting(std::size_t index, const std::string& run_id);
  void finished(std::size_t index, const std::string& run_id, const std::string& status,
                const std::string& reason, std::uint64_t elapsed_ns);
  void note(const std::string& line);  // a line of its own, not lost under the progress line
  void done();

 private:
  std::string eta() const;

  struct Spent {
    std::size_t runs = 0;
    std::uint64_t ns = 0;
  };
  std::ostream& out_;
  bool terminal_;
  std::vector<std::string> kinds_;
  std::size_t finished_ = 0;
  std::size_t next_ = 0;  // the first run not finished yet, in plan order
  Spent all_;
  std::map<std::string, Spent> by_kind_;
  bool line_open_ = false;
};

}  // namespace jbench::run
