#include "jbench/cli/cli.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <vector>

#include "commands.h"
#include "jbench/common/path_search.h"
#include "unknown_words.h"

namespace jbench::cli {
namespace {

struct Listed {
  const char* name;
  const char* description;
  bool own_executable;  // built as jbench-<name>, not into jbench itself
};

// Every command, in the order `jbench --help` lists them, and where it is built.
constexpr Listed kCommands[] = {
    {"plan", "expand a matrix into the ordered, seeded runs it means", false},
    {"run", "execute a matrix's runs and leave a validated bundle", false},
    {"validate", "check a bundle: checksums, schemas, attribution, summaries", false},
    {"archive", "write a bundle as one file that `jbench validate` checks", false},
    {"doctor", "what tracing this host can do, and for what it cannot, why", false},
    {"probes", "list a binary's USDT probes and check them against the bridge's ABI contract",
     false},
    {"report", "where each cell's time went, beside what each trace mode cost", false},
    {"export",
     "a bundle's timelines for a viewer: Chrome trace JSON (Perfetto), folded stacks; "
     "or its raw records as text (jsonl)",
     true},
    {"oracle", "the correctness pass: corpus, generator, ledgers under kill storms, I/O faults",
     false},
    {"compare", "two bundles cell by cell: regressed, improved, same, or not enough evidence",
     true},
    {"history", "a folder of nightly bundles: series per cell, change points", true},
    {"propose", "an optimization's evidence: oracle gate, interleaved sessions, declared rule",
     true},
    {"merge", "join the shard bundles of one plan (run --shard K/N) into one validated bundle",
     true},
    {"slurm", "a matrix as a Slurm job array of shards and a dependent merge, submitted or not",
     true},
    {"k8s", "a matrix as a Kubernetes Indexed Job of shards and a merge Job, as a manifest", true},
    {"check-worker", "does a program speak the worker protocol? each rule checked and named", true},
};

// The executable beside this one that holds `command`, in this process's place with the same
// arguments. Returns only when it cannot be started.
int start_elsewhere(const Listed& command, int argc, char** argv) {
  const std::string file =
      command.own_executable ? fmt::format("jbench-{}", command.name) : std::string("jbench");
  std::string exe = beside_self_executable(file);
  if (exe == self_executable()) {  // listed as built in, but not registered: never exec a loop
    std::cerr << fmt::format(
        "jbench: internal error: 'jbench {}' is listed as built into {} "
        "but is not there\n",
        command.name, exe);
    return kExitInternal;
  }
  std::vector<char*> args(argv, argv + argc);
  args[0] = exe.data();
  args.push_back(nullptr);
  ::execv(exe.c_str(), args.data());
  const int err = errno;
  if (err == ENOENT) {
    std::cerr << fmt::format(
        "jbench: error: 'jbench {0}' is not built here: {1} is missing. Build it with "
        "`bash ci/build.sh {2}` (or every command with `bash ci/build.sh`).\n",
        command.name, exe, file);
    return kExitUsage;
  }
  std::cerr << fmt::format("jbench: internal error: cannot start {}: {}\n", exe,
                           std::strerror(err));
  return kExitInternal;
}

}  // namespace

int run_commands(int argc, char** argv, const CommandsHere& here) {
  // A command held elsewhere gets the whole command line, and checks its own options. jbench's
  // own options (--help, --version) take no value: the first other word is the command.
  const auto command_word =
      std::find_if(argv + 1, argv + argc, [](const char* a) { return a[0] != '-'; });
  if (command_word != argv + argc) {
    for (const Listed& c : kCommands) {
      if (*command_word == std::string_view(c.name) && !here.count(c.name)) {
        return start_elsewhere(c, argc, argv);
      }
    }
  }
  CLI::App app{
      "jbench: a benchmark harness whose measurements are attributable, validated and "
      "reproducible.",
      "jbench"};
  app.set_version_flag("--version", JBENCH_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 success, 1 the checked thing failed, 2 bad usage or input, "
      "3 internal error.\nSee docs/cli.md.");

  std::vector<std::pair<CLI::App*, Action>> actions;
  for (const Listed& c : kCommands) {
    CLI::App* sub = app.add_subcommand(c.name, c.description);
    // A command held elsewhere is listed for --help only: the command word started it above.
    if (const auto it = here.find(c.name); it != here.end()) {
      actions.emplace_back(sub, it->second(*sub));
    }
  }

  // CLI11 would print help for `jbench rnu --help`, and exit 0: a misspelt word is an error first.
  if (const Status known = check_known_words(app, std::vector<std::string>(argv + 1, argv + argc));
      !known) {
    std::cerr << fmt::format(
        "jbench: error: {}\nRun 'jbench --help' or 'jbench <command> --help'.\n",
        known.error().message);
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << fmt::format(
        "jbench: error: {}\nRun 'jbench --help' or 'jbench <command> --help'.\n", e.what());
    return kExitUsage;
  }
  try {
    for (auto& [sub, action] : actions) {
      if (sub->parsed()) return action();
    }
  } catch (const std::exception& e) {
    std::cerr << fmt::format("jbench: internal error: {}\n", e.what());
    return kExitInternal;
  }
  return kExitInternal;
}

}  // namespace jbench::cli
