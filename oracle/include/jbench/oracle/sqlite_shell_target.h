// The sqlite3 command-line shell as an engine: a real external SQLite, driven over its stdin
// and stdout in quote mode (values printed as SQL literals), so that the oracle can compare the
// shell's answers with another engine's. jbench-oracle-sqlite3 serves it over the oracle's line
// protocol (protocol.h), which makes it the protocol's first real external engine.
//
//   auto shell = SqliteShellTarget::start({.database = "/tmp/x.db"});
//   ResultSet r = shell->run("SELECT ?1 + 1", {Value::integer(41)});   // (42)
//
// How a statement is played: its ?N parameters are written into the text as literals
// (inline_parameters, sql_lexer.h), the SQL is sent terminated with ';', then `.print <marker>`;
// the lines before the marker are the rows (quote mode: a text value may span lines) or, from a
// "Parse error" / "Runtime error" line on, the error (its "(code)" when the shell gives one, else
// SQLITE_ERROR). stderr is merged into stdout so the error comes in order with the rows. What the
// shell cannot do, and so this engine does not: prepared statements (each execution is a fresh
// statement: supports_prepared() is false), column names (quote mode prints none), and parameters
// other than ?N. A statement given more parameters than it uses fails with SQLITE_RANGE here as it
// does in SqliteTarget only when it uses one past the end.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/target.h"

namespace jbench::proc {
class ChildProcess;
}

namespace jbench::oracle {

struct ShellOptions {
  std::string database = ":memory:";
  std::string sqlite3;           // the shell; empty: `sqlite3` on PATH
  std::string functions_module;  // the oracle's functions as a loadable extension; empty: none
  std::uint32_t statement_timeout_ms = 30'000;
};

class SqliteShellTarget : public Target {
 public:
  static Result<SqliteShellTarget> start(const ShellOptions& options);
  SqliteShellTarget(SqliteShellTarget&&) noexcept;
  SqliteShellTarget& operator=(SqliteShellTarget&&) noexcept;
  ~SqliteShellTarget() override;

  ResultSet run(std::string_view sql, const std::vector<Value>& params) override;
  ResultSet run_prepared(const std::string&, std::string_view sql,
                         const std::vector<Value>& params) override {
    return run(sql, params);
  }
  bool supports_prepared() const override { return false; }
  std::string name() const override { return version_; }

 private:
  SqliteShellTarget() = default;
  // Lines up to the marker, or why not (the shell exited, overran a line or the timeout).
  Result<std::vector<std::string>> until_marker(const std::string& marker);

  std::unique_ptr<proc::ChildProcess> child_;
  std::string version_;
  std::uint32_t timeout_ms_ = 30'000;
  std::uint64_t sequence_ = 0;
  std::string marker_base_;
  std::optional<std::string> gone_;
};

// Quote-mode output lines parsed into rows (pure; exposed for tests): a row per line outside
// quotes, values separated by ','; Inf and -Inf as reals; an error line ends the rows.
ResultSet parse_quote_output(const std::vector<std::string>& lines);

}  // namespace jbench::oracle
