// An engine in its own process, speaking the oracle's line protocol (protocol.h,
// docs/oracle-protocol.md) on its stdin and stdout, as a Target. This is how an engine that is
// not linked into jbench — one built on the Jerboa runtime, the wrapped sqlite3 shell — is
// compared with another.
//
//   auto engine = ProcessTarget::start({.argv = {"/usr/local/bin/my-engine", "--oracle"}});
//   if (!engine) return engine.error();          // it did not start or never said hello
//   ResultSet r = engine->run("SELECT 1", {});
//
// Every wait is bounded: a missing hello fails start() after start_timeout_ms; a statement not
// answered within statement_timeout_ms kills the engine. A crash, a hang, a line that is not
// the protocol or a malformed row becomes ResultSet::engine_failure naming what happened (exit
// status, the last of its stderr), and every later statement fails the same way without
// waiting: the engine is gone. jbench never crashes or hangs on what an engine says.
// The engine is spawned through jbench::proc::ChildProcess: its own process group, killed with
// jbench (PDEATHSIG), always reaped.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/protocol.h"
#include "jbench/oracle/target.h"

namespace jbench::proc {
class ChildProcess;
}

namespace jbench::oracle {

struct EngineCommand {
  std::vector<std::string> argv;  // argv[0] absolute, or a name searched on PATH
  std::string working_dir;
  std::uint32_t start_timeout_ms = 10'000;
  std::uint32_t statement_timeout_ms = 10'000;
};

class ProcessTarget : public Target {
 public:
  static Result<ProcessTarget> start(const EngineCommand& command);

  ProcessTarget(ProcessTarget&&) noexcept;
  ProcessTarget& operator=(ProcessTarget&&) noexcept;
  ~ProcessTarget() override;  // asks the engine to quit, waits briefly, then kills it

  ResultSet run(std::string_view sql, const std::vector<Value>& params) override;
  ResultSet run_prepared(const std::string& statement, std::string_view sql,
                         const std::vector<Value>& params) override;
  bool supports_prepared() const override { return prepared_; }
  // The switches its hello offered; switch_off asks the engine (a name it did not offer is
  // refused here, an engine that fails to answer is an error naming why).
  std::vector<std::string> optimizations() const override { return optimizations_; }
  Status switch_off(const std::vector<std::string>& names) override;
  // "engine:" and what its hello called it, e.g. "engine:sqlite3 3.40.1 (shell)".
  std::string name() const override { return "engine:" + engine_; }

  // Why the engine is gone, once it is.
  const std::optional<std::string>& gone() const { return gone_; }

 private:
  ProcessTarget() = default;
  ResultSet request(const std::string& statement, std::string_view sql,
                    const std::vector<Value>& params);
  ResultSet exchange(const RunRequest& req);
  // The next line within `timeout_ms`, or why not (timeout, EOF, overlong).
  Result<std::string> next_line(std::uint32_t timeout_ms);
  // Kills and reaps the engine and says why it is gone, with its status and stderr's end.
  std::string fail(const std::string& why);
  std::string stderr_tail() const;

  std::unique_ptr<proc::ChildProcess> child_;
  std::string engine_;
  bool prepared_ = false;
  std::vector<std::string> optimizations_;
  std::uint32_t statement_timeout_ms_ = 10'000;
  std::uint64_t next_id_ = 1;
  std::optional<std::string> gone_;
  std::string stderr_path_;
};

}  // namespace jbench::oracle
