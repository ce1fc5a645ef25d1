#include "jbench/oracle/sqlite_shell_target.h"

#include <signal.h>
#include <unistd.h>

#include <cmath>
#include <limits>

#include "jbench/common/clock.h"
#include "jbench/common/path_search.h"
#include "jbench/oracle/corpus.h"
#include "jbench/oracle/sql_lexer.h"
#include "jbench/proc/child_process.h"

namespace jbench::oracle {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// "Runtime error near line 3: UNIQUE constraint failed: t.a (19)" -> 19 and the message.
StatementError error_of(std::string_view line) {
  std::string_view message = line;
  if (std::size_t colon = line.find(": "); colon != std::string_view::npos) {
    message = line.substr(colon + 2);
  }
  if (starts_with(line, "Error: ")) message = line.substr(7);
  int code = 1;  // SQLITE_ERROR: the shell gives no code for a parse error
  if (message.size() > 3 && message.back() == ')') {
    std::size_t open = message.rfind(" (");
    if (open != std::string_view::npos) {
      std::string digits(message.substr(open + 2, message.size() - open - 3));
      if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos) {
        code = std::stoi(digits);
        message = message.substr(0, open);
      }
    }
  }
  return {code, std::string(message)};
}

bool error_line(std::string_view line) {
  return starts_with(line, "Parse error") || starts_with(line, "Runtime error") ||
         starts_with(line, "Error: ");
}

}  // namespace

ResultSet parse_quote_output(const std::vector<std::string>& lines) {
  ResultSet r;
  std::string text;  // the output so far of the row being read, lines joined by '\n'
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (text.empty() && error_line(lines[i])) {
      r.error = error_of(lines[i]);  // the lines after it are the shell's context for the error
      return r;
    }
    text += text.empty() ? lines[i] : "\n" + lines[i];
    Row row;
    std::size_t pos = 0;
    bool complete = true;
    std::string problem;
    for (;;) {
      std::string_view rest = std::string_view(text).substr(pos);
      if (starts_with(rest, "Inf") || starts_with(rest, "-Inf")) {
        bool negative = rest[0] == '-';
        row.push_back(Value::real(negative ? -std::numeric_limits<double>::infinity()
                                           : std::numeric_limits<double>::infinity()));
        pos += negative ? 4 : 3;
      } else {
        LiteralParse p = parse_literal(rest);
        if (!p.value) {
          // An unterminated text value continues on the next line.
          if (!rest.empty() && rest[0] == '\'' && i + 1 < lines.size()) {
            complete = false;
          } else {
            problem = "the shell printed what is not a value: " + std::string(rest.substr(0, 80));
          }
          break;
        }
        row.push_back(std::move(*p.value));
        pos += p.consumed;
      }
      if (pos == text.size()) break;
      if (text[pos] != ',') {
        problem = "the shell printed what is not a row: " + text.substr(0, 80);
        break;
      }
      ++pos;
    }
    if (!complete) continue;
    if (!problem.empty()) {
      r.engine_failure = problem;
      return r;
    }
    r.rows.push_back(std::move(row));
    text.clear();
  }
  if (!text.empty()) r.engine_failure = "the shell's output ends inside a value";
  return r;
}

Result<SqliteShellTarget> SqliteShellTarget::start(const ShellOptions& options) {
  std::string shell = options.sqlite3.empty() ? find_on_path("sqlite3") : options.sqlite3;
  if (shell.empty()) {
    return Error{"the sqlite3 shell is not on PATH (Debian: apt-get install sqlite3)", 0,
                 ErrorKind::host};
  }
  // The shell may die between two statements: the next write must fail with EPIPE, not kill us.
  ::signal(SIGPIPE, SIG_IGN);
  proc::SpawnSpec spec;
  // Through sh only to merge the shell's stderr into its stdout, so errors arrive in order.
  spec.executable = "/bin/sh";
  spec.args = {"-c", "exec \"$0\" -batch \"$1\" 2>&1", shell, options.database};
  auto spawned = proc::ChildProcess::spawn(spec);
  if (!spawned) {
    return Error{"cannot start the sqlite3 shell: " + spawned.error().message, 0, ErrorKind::host};
  }
  SqliteShellTarget t;
  t.child_ = std::move(*spawned);
  t.timeout_ms_ = options.statement_timeout_ms;
  t.marker_base_ =
      "@@jbench-" + std::to_string(getpid()) + "-" + std::to_string(monotonic_ns()) + "-";
  std::string setup = ".mode quote\n.headers off\n.bail off\n.print " + t.marker_base_ + "0\n";
  if (!options.functions_module.empty()) {
    setup = ".load " + options.functions_module + " jbench_oracle_functions_init\n" + setup;
  }
  setup += "SELECT 'sqlite3 ' || sqlite_version() || ' (shell)';\n.print " + t.marker_base_ + "1";
  if (const Status written = t.child_->write_line(setup, 2000); !written) {
    return Error{"the sqlite3 shell does not take input: " + written.error().message, 0,
                 ErrorKind::host};
  }
  const auto setup_out = t.until_marker(t.marker_base_ + "0");
  if (!setup_out || !setup_out->empty()) {
    const std::string said = setup_out ? (*setup_out)[0] : setup_out.error().message;
    return Error{"the sqlite3 shell refused its setup: " + said, 0, ErrorKind::host};
  }
  const auto version = t.until_marker(t.marker_base_ + "1");
  const ResultSet v = version ? parse_quote_output(*version) : ResultSet{};
  if (!version || v.rows.size() != 1 || v.rows[0][0].kind != ValueKind::text) {
    const std::string why = version ? "" : version.error().message;
    return Error{"the sqlite3 shell did not say its version: " + why, 0, ErrorKind::host};
  }
  t.version_ = v.rows[0][0].bytes;
  t.sequence_ = 2;
  return t;
}

SqliteShellTarget::SqliteShellTarget(SqliteShellTarget&&) noexcept = default;
SqliteShellTarget& SqliteShellTarget::operator=(SqliteShellTarget&&) noexcept = default;

SqliteShellTarget::~SqliteShellTarget() {
  if (child_ && !child_->reaped()) {
    child_->close_stdin();  // the shell exits at the end of its input
    if (!child_->reap_within(1000)) child_->kill_and_reap();
  }
}

Result<std::vector<std::string>> SqliteShellTarget::until_marker(const std::string& marker) {
  std::vector<std::string> out;
  const std::uint64_t deadline = monotonic_ns() + std::uint64_t{timeout_ms_} * 1'000'000;
  for (;;) {
    std::string line;
    switch (child_->next_line(line, deadline, 64u << 20)) {
      case proc::ChildProcess::LineWait::line:
        // A text value cannot end the output early: in quote mode it is quoted, the marker not.
        if (line == marker) return out;
        out.push_back(std::move(line));
        continue;
      case proc::ChildProcess::LineWait::overlong:
        return Error{"the shell wrote an overlong line"};
      case proc::ChildProcess::LineWait::closed:
        return Error{"the shell exited"};
      case proc::ChildProcess::LineWait::timed_out:
        return Error{"the shell gave no answer within " + std::to_string(timeout_ms_) + " ms"};
    }
  }
}

ResultSet SqliteShellTarget::run(std::string_view sql, const std::vector<Value>& params) {
  ResultSet r;
  if (gone_) {
    r.engine_failure = "the shell is gone: " + *gone_;
    return r;
  }
  // Parameters go into the text as literals: the shell's own `.param set` is a write to
  // temp.sqlite_parameters, which would change what changes() says next.
  std::optional<std::string> text = inline_parameters(sql, params);
  if (!text) {
    r.error = StatementError{25, "the shell takes ?N parameters only, each one given"};  // RANGE
    return r;
  }
  std::string input;
  // The newline before ';' ends a trailing -- comment; an extra ';' is an empty statement.
  std::string marker = marker_base_ + std::to_string(sequence_++);
  input += *text + "\n;\n.print " + marker;
  if (const Status written = child_->write_line(input, static_cast<int>(timeout_ms_)); !written) {
    gone_ = "it does not take input: " + written.error().message;
    r.engine_failure = *gone_;
    return r;
  }
  const auto lines = until_marker(marker);
  if (!lines) {
    child_->kill_and_reap();
    gone_ = lines.error().message;
    r.engine_failure = *gone_;
    return r;
  }
  return parse_quote_output(*lines);
}

}  // namespace jbench::oracle
