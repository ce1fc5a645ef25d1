// `jbench plan MATRIX [--only AXIS=V1,V2 ...] [--json] [--host-cores N --host-memory-mib M]`
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/host/host_resources.h"
#include "jbench/matrix/load.h"
#include "jbench/plan/plan.h"
#include "jbench/plan/plan_output.h"

namespace jbench::cli {
namespace {

struct PlanOptions {
  std::string matrix;
  std::vector<std::string> only;
  bool json = false;
  std::optional<std::uint32_t> host_cores;
  std::optional<std::uint64_t> host_memory_mib;
};

int run_plan(const PlanOptions& o) {
  auto loaded = load_matrix_file(o.matrix);
  if (!loaded.matrix) {
    std::cerr << format_diagnostics(loaded.diagnostics);
    return kExitUsage;
  }
  const Matrix& matrix = *loaded.matrix;
  auto filters = parse_only_filters(o.only, matrix);
  if (!filters.errors.empty()) {
    for (const auto& e : filters.errors) std::cerr << "jbench: error: " << e << '\n';
    return kExitUsage;
  }
  HostResources host = probe_host_resources();
  if (o.host_cores) host.cores = *o.host_cores;
  if (o.host_memory_mib) host.memory_mib = *o.host_memory_mib;
  const Plan plan = make_plan(matrix, filters.filters, host);
  if (o.json) {
    write_plan_json(plan, std::cout);
  } else {
    write_plan_text(plan, std::cout);
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
  auto o = std::make_shared<PlanOptions>();
  app.add_option("matrix", o->matrix, "the matrix file (YAML, matrix language v1)")->required();
  app.add_option("--only", o->only,
                 "run only these values of one axis, e.g. --only workers=1,2; repeat for other "
                 "axes; the other values stay in the plan as 'planned'")
      ->type_name("AXIS=V1,V2")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_flag("--json", o->json, "print the plan as JSON (manifests/plan.schema.json)");
  app.add_option("--host-cores", o->host_cores,
                 "plan for a host with this many cores instead of this one")
      ->check(CLI::Range(1, 65536));
  app.add_option("--host-memory-mib", o->host_memory_mib,
                 "plan for a host with this much memory (MiB) instead of this one")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  app.footer(
      "The plan is a pure function of the matrix, the filters and the host's resources: "
      "the same inputs give byte-identical --json output.");
  return [o] { return run_plan(*o); };
}

}  // namespace jbench::cli
