// `jbench plan MATRIX [--only AXIS=V1,V2 ...] [--json] [--bundles DIR] [--host-cores N ...]`
#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/plan/plan_output.h"
#include "plan_input.h"

namespace jbench::cli {
namespace {

struct PlanOptionsCli {
  PlanInput input;
  bool json = false;
  std::string bundles = "bundles";  // where an earlier bundle's measured tracer attach is read
};

int run_plan(const PlanOptionsCli& o) {
  const auto plan = make_plan_from(o.input, o.bundles);
  if (!plan) return kExitUsage;
  if (o.json) {
    write_plan_json(*plan, std::cout);
  } else {
    write_plan_text(*plan, std::cout);
  }
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "jbench: error: cannot write the plan to standard output\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

Action add_plan_command(CLI::App& app) {
  auto o = std::make_shared<PlanOptionsCli>();
  add_plan_input_options(app, o->input);
  app.add_flag("--json", o->json, "print the plan as JSON (manifests/plan.schema.json)");
  app.add_option("--bundles", o->bundles,
                 "where earlier bundles are: the time estimate uses the tracer attach measured in "
                 "the newest one with traced runs (default: bundles)");
  app.footer(
      "The plan is a pure function of the matrix, the filters and the host's resources: "
      "the same inputs give byte-identical --json output.");
  return [o] { return run_plan(*o); };
}

}  // namespace jbench::cli
