// `jbench doctor [--json] [--no-attach]`: the capability probe of this host. Not being able to
// trace is a result, not an error: the exit code is 0 whenever the probe ran.
#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/doctor/capabilities.h"
#include "jbench/doctor/capabilities_text.h"

namespace jbench::cli {
namespace {

struct DoctorOptions {
  bool json = false;
  bool no_attach = false;
  std::string root;
  std::string path;
};

int run_doctor(const DoctorOptions& o) {
  ProbeOptions probe;
  probe.root = o.root;
  probe.path_env = o.path;
  probe.try_attach = !o.no_attach;
  const nlohmann::json caps = probe_capabilities(probe);
  if (o.json) {
    std::cout << caps.dump(2) << '\n';
  } else {
    std::cout << capabilities_to_text(caps);
  }
  return kExitOk;
}

}  // namespace

Action add_doctor_command(CLI::App& app) {
  auto o = std::make_shared<DoctorOptions>();
  app.add_flag("--json", o->json, "print the probe as JSON (schema jbench.capabilities)");
  app.add_flag("--no-attach", o->no_attach,
               "do not run the attach tests (bpftrace BEGIN probe, strace on a child); the "
               "output says nothing was proven");
  // For tests: read /proc and /sys under DIR, look for tools in PATH.
  app.add_option("--root", o->root)->group("");
  app.add_option("--path", o->path)->group("");
  app.footer(
      "One line per check: available, or not available with a reason code, the detail and the "
      "fix; then the backend chosen for each kind of event. Checks and reason codes: "
      "docs/doctor.md.\nExit codes: 0 the probe ran (whatever it found), 2 bad usage.");
  return [o] { return run_doctor(*o); };
}

}  // namespace jbench::cli
