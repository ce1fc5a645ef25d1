// `jbench oracle MATRIX [--out DIR] [--name NAME]`: the correctness pass an oracle matrix
// describes, left as a validated bundle of its own (docs/oracle.md).
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/common/path_search.h"
#include "jbench/matrix/oracle_matrix.h"
#include "jbench/oracle_pass/oracle_bundle.h"
#include "jbench/oracle_pass/oracle_pass.h"
#include "jbench/proc/interrupt.h"

namespace jbench::cli {
namespace {

namespace fs = std::filesystem;

struct OracleOptions {
  std::string matrix;
  std::string out = "bundles";
  std::string name;
};

// One line per section that ran: what it checked and how it ended.
void print_summary(const nlohmann::json& d, std::ostream& out) {
  for (const auto& [name, s] : d["sections"].items()) {
    std::string status = s.value("status", "");
    if (status == oracle_pass::kNotRequested) continue;
    std::string what;
    if (name == "corpus" || name == "generator") {
      what = fmt::format("{} statements compared", s.value("statements_compared", 0));
    } else if (name == "metamorphic") {
      what = fmt::format("{} TLP and NoREC cases", s.value("cases", 0));
    } else if (name == "plans") {
      const std::size_t switches = s.contains("optimizations") ? s["optimizations"].size() : 0;
      what = fmt::format("{} queries x {} planner switches, {} differing", s.value("queries", 0),
                         switches, s.contains("findings") ? s["findings"].size() : 0);
    } else if (name == "ledgers") {
      std::size_t kills = 0;
      if (s.contains("storms")) {
        for (const auto& storm : s["storms"]) {
          if (storm.contains("storm")) kills += storm["storm"].value("kills_done", 0);
        }
      }
      what = fmt::format("{} storms, {} SIGKILLs", s.contains("storms") ? s["storms"].size() : 0,
                         kills);
    } else if (name == "crash_states") {
      what = fmt::format("{} crash states of recorded runs", s.value("states_explored", 0));
    } else if (name == "faults") {
      std::size_t runs = 0;
      if (s.contains("modes")) {
        for (const auto& mode : s["modes"]) {
          if (!mode.contains("visited")) continue;
          for (const auto& [kind, n] : mode["visited"].items()) runs += n.get<std::size_t>();
        }
      }
      what = fmt::format("{} faulted runs, every I/O point", runs);
    }
    if (s.contains("what")) what = s["what"].get<std::string>();
    out << fmt::format("  {:<12} {:<7} {}\n", name, status, what);
  }
}

int run_oracle(const OracleOptions& o) {
  LoadedOracleMatrix loaded = load_oracle_matrix_file(o.matrix);
  if (!loaded.matrix) {
    std::cerr << format_diagnostics(loaded.diagnostics);
    return kExitUsage;
  }
  const OracleMatrix& m = *loaded.matrix;
  oracle_pass::PassOptions pass;
  pass.ledger_worker = beside_self_executable("jbench-ledger-worker");
  if (!m.ledgers.empty() && ::access(pass.ledger_worker.c_str(), X_OK) != 0) {
    std::cerr << "jbench: error: the ledgers need " << pass.ledger_worker
              << ", which is not there: build it (bash ci/build.sh jbench-ledger-worker)\n";
    return kExitUsage;
  }
  std::error_code ec;
  fs::create_directories(o.out, ec);
  pass.work_dir = (fs::path(o.out) / (".scratch-oracle-" + std::to_string(::getpid()))).string();
  fs::create_directories(pass.work_dir, ec);
  if (ec) {
    std::cerr << "jbench: error: cannot make " << pass.work_dir << ": " << ec.message() << "\n";
    return kExitUsage;
  }
  pass.log = &std::cerr;
  // Ctrl-C or SIGTERM stops the pass between statements and checks; what ran is kept, in a
  // bundle named .interrupted.
  proc::InterruptWatch interrupt;
  pass.should_stop = [&interrupt] { return interrupt.interrupted(); };
  auto record = oracle_pass::run_oracle_pass(m, pass);
  fs::remove_all(pass.work_dir, ec);
  if (!record) {
    std::cerr << "jbench: error: " << record.error().message << "\n";
    return kExitUsage;
  }
  auto written = oracle_pass::write_oracle_bundle(*record, m, o.out, o.name);
  if (!written) {
    std::cerr << "jbench: error: the oracle bundle could not be written: "
              << written.error().message << "\n";
    return kExitInternal;
  }
  std::cout << fmt::format("oracle {}: {}\n", m.name,
                           record->passed()        ? "passed"
                           : record->interrupted() ? "INTERRUPTED (what ran is in the bundle)"
                                                   : "FAILED");
  print_summary(record->document, std::cout);
  std::cout << fmt::format("bundle: {}{}\n", written->path,
                           written->valid ? "" : " (INVALID: see validation.json)");
  std::cout << fmt::format("next: jbench validate {}\n", written->path);
  if (!record->passed()) {
    std::cout << fmt::format(
        "      the findings and reductions are in {}/oracle.json and {}/"
        "reductions/\n",
        written->path, written->path);
  }
  // A file that could not be written is an output that could not be written, in every command.
  std::cerr << not_written_lines(written->not_written);
  if (!written->not_written.empty()) return kExitInternal;
  if (!written->valid) return kExitCheckFailed;
  return record->passed() ? kExitOk : kExitCheckFailed;
}

}  // namespace

Action add_oracle_command(CLI::App& app) {
  auto o = std::make_shared<OracleOptions>();
  app.add_option("MATRIX", o->matrix, "the oracle matrix (docs/oracle.md)")->required();
  app.add_option("--out", o->out, "where the bundle goes")->default_val(o->out);
  app.add_option("--name", o->name, "the bundle's name (default: <matrix name>-<UTC time>)");
  app.footer(
      "Runs the corpus, the generated stream, the metamorphic checks, the ledgers under SIGKILL "
      "storms and the I/O-fault loop the matrix asks for, and leaves a validated bundle.\nExit "
      "codes: 0 every check passed, 1 a divergence, a lost or visible uncommitted transaction, a "
      "broken fault promise, an engine that failed, or an interrupted pass, 2 bad input (a matrix "
      "or corpus error, "
      "file:line:col named; an engine that is not there), 3 the bundle could not be written.");
  return [o] { return run_oracle(*o); };
}

}  // namespace jbench::cli
