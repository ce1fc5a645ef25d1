// `jbench run MATRIX [--only AXIS=V1,V2 ...] [--out DIR] [--name NAME] [--worker-dir DIR]`
#include <unistd.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/run/session.h"
#include "plan_input.h"

namespace jbench::cli {
namespace {

struct RunOptionsCli {
  PlanInput input;
  SessionOptions session;
};

int run_run(const RunOptionsCli& o) {
  const auto plan = make_plan_from(o.input, o.session.out_dir);
  if (!plan) return kExitUsage;
  if (plan->runs.empty()) {
    std::cerr << "jbench: error: the plan has no run to execute (see 'jbench plan' for why)\n";
    return kExitUsage;
  }
  SessionOptions options = o.session;
  options.terminal = isatty(STDERR_FILENO) == 1;
  const Result<SessionOutcome> outcome = run_session(*plan, options, std::cerr);
  // Nothing ran: the input or this host cannot run the plan (docs/cli.md, exit codes).
  if (!outcome) {
    std::cerr << "jbench: error: " << outcome.error().message << '\n';
    return kExitUsage;
  }
  std::cout << outcome->bundle_path << '\n';
  if (!outcome->not_written.empty()) return kExitInternal;  // printed by the session
  return outcome->complete ? kExitOk : kExitCheckFailed;
}

}  // namespace

Action add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptionsCli>();
  add_plan_input_options(app, o->input);
  app.add_option("--out", o->session.out_dir,
                 "where bundles go (default: bundles/ in the current directory)");
  app.add_option("--name", o->session.bundle_name,
                 "the bundle's name (default: <matrix name>-<UTC time>); an existing bundle is "
                 "never overwritten");
  app.add_option("--worker-dir", o->session.worker_dir,
                 "the folder of the jbench-<kind>-worker binaries (default: beside jbench)");
  app.add_option("--scratch", o->session.scratch_dir,
                 "where run databases live while they run (default: <out>/.scratch-<name>)");
  app.add_option("--lockstep", o->session.lockstep_dir,
                 "a fresh folder shared with one other jbench run of the same plan (a duet, "
                 "docs/compare.md): each run's measure phase starts when the other's reaches it "
                 "too");
  app.footer(
      "Prints the bundle's path on stdout; progress and the results table on stderr.\n"
      "Exit codes: 0 every run ok, 1 a run failed or timed out or the session was interrupted "
      "(the bundle still records it), 2 bad usage or input.");
  return [o] { return run_run(*o); };
}

}  // namespace jbench::cli
