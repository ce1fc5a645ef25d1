// The compiled tracer's probe where jbench is built without it (cmake/JbenchBpf.cmake found no
// libbpf, bpftool, clang or BTF, or the build is not for Linux): not_installed, with the facts
// that would decide otherwise.
#include "jbench/collectors/syscall/compiled_tracer.h"
#include "jbench/common/platform_choice.h"

namespace jbench::collectors {

CompiledTracerProbe probe_compiled_tracer(const CompiledTracerProbeOptions& options) {
  CompiledTracerProbe p =
      judge_compiled_tracer(false, read_compiled_tracer_facts(options.root), std::nullopt);
  if (!JBENCH_PLATFORM_LINUX) {
    p.reason =
        "this jbench is built for a system other than Linux (JBENCH_PLATFORM=posix, "
        "docs/platforms.md), and the compiled tracer loads BPF programs into Linux's kernel";
    p.remediation =
        "on Linux, a build for Linux (its default there); on this system, DTrace "
        "(--syscall-backend dtrace)";
  }
  return p;
}

}  // namespace jbench::collectors
