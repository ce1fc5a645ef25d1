#include "session_setup.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "jbench/common/clock.h"
#include "jbench/common/path_search.h"
#include "jbench/proc/worker_describe.h"
#include "probe_check.h"

namespace jbench::run {
namespace {

namespace fs = std::filesystem;

std::string self_dir() {
  const fs::path exe = self_executable();
  return exe.empty() ? std::string(".") : exe.parent_path().string();
}

Error refusal(std::string message) { return {std::move(message), 0}; }

// The databases live in the scratch directory: it must be creatable and writable before any
// worker starts, or every run would fail for the same reason.
Status prepare_scratch(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return refusal(fmt::format("cannot create the scratch directory {}: {}", dir, ec.message()));
  }
  const std::string probe = dir + "/.write-test";
  FILE* f = std::fopen(probe.c_str(), "we");
  if (!f) {
    return refusal(
        fmt::format("the scratch directory {} is not writable: {}", dir, std::strerror(errno)));
  }
  std::fclose(f);
  std::remove(probe.c_str());
  return {};
}

}  // namespace

Result<SessionSetup> resolve_session(const Plan& plan, const SessionOptions& given) {
  const Matrix& m = *plan.matrix;
  SessionSetup s;
  // Every path handed to another process is absolute: workers run in their own scratch
  // directories, so a relative --out or --worker-dir would point nowhere for them.
  s.options = given;
  for (std::string* path : {&s.options.out_dir, &s.options.worker_dir, &s.options.scratch_dir}) {
    if (path->empty()) continue;
    std::error_code ec;
    if (auto abs = fs::absolute(*path, ec); !ec) *path = abs.lexically_normal().string();
  }
  const std::string worker_dir = s.options.worker_dir.empty() ? self_dir() : s.options.worker_dir;
  if (m.workload.kind == kProcessKind) {
    s.worker = m.workload.command;
    s.worker.front() = proc::worker_program(s.worker.front());
    s.helpers_dir = self_dir();
    if (s.worker.front().empty()) {
      return refusal(fmt::format("the worker '{}' (workload.command) is not an executable file",
                                 m.workload.command.front()));
    }
  } else {
    s.worker = {fmt::format("{}/jbench-{}-worker", worker_dir, m.workload.kind)};
    s.helpers_dir = worker_dir;
    if (access(s.worker.front().c_str(), X_OK) != 0) {
      return refusal(
          fmt::format("the workload binary {} does not exist or is not executable; "
                      "build jbench (bash ci/build.sh) or point --worker-dir at the "
                      "folder that holds it",
                      s.worker.front()));
    }
  }
  // Traced runs read the target's probes: a target that does not honour the bridge's ABI
  // contract is refused before anything runs.
  s.traced = std::any_of(plan.runs.begin(), plan.runs.end(),
                         [](const Run& r) { return r.trace != TraceMode::baseline; });
  if (s.traced) {
    const std::string bridge_library =
        (fs::path(worker_dir).parent_path() / "lib" / "libjbench_bridge.so").string();
    if (const Status honoured = check_probe_contract(s.worker.front(), bridge_library); !honoured) {
      return refusal(honoured.error().message);
    }
  }
  s.name = s.options.bundle_name.empty() ? fmt::format("{}-{}", m.name, utc_now("%Y%m%dT%H%M%SZ"))
                                         : s.options.bundle_name;
  s.scratch = s.options.scratch_dir.empty()
                  ? fmt::format("{}/.scratch-{}", s.options.out_dir, s.name)
                  : s.options.scratch_dir;
  // The allocation sampler, preloaded into native workers in light and full: lib/ beside bin/.
  if (const auto lib = fs::path(self_dir()).parent_path() / "lib" / "libjbench_alloc.so";
      access(lib.c_str(), R_OK) == 0) {
    s.alloc_library = lib.string();
  }
  return s;
}

Result<EvidenceBundle> open_bundle(const SessionSetup& s) {
  if (Status ok = prepare_scratch(s.scratch); !ok) return ok.error();
  auto staged = EvidenceBundle::create(s.options.out_dir, s.name);
  if (!staged) {
    std::error_code ec;
    fs::remove_all(s.scratch, ec);
    return staged.error();  // an existing bundle of that name, an --out that cannot be used
  }
  return staged;
}

}  // namespace jbench::run
