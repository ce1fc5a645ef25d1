// The compiled tracer's probe where jbench is built without it (cmake/JbenchBpf.cmake found no
// libbpf, bpftool, clang or BTF): not_installed, with the facts that would decide otherwise.
#include "jbench/collectors/syscall/compiled_tracer.h"

namespace jbench::collectors {

CompiledTracerProbe probe_compiled_tracer(const CompiledTracerProbeOptions& options) {
  return judge_compiled_tracer(false, read_compiled_tracer_facts(options.root), std::nullopt);
}

}  // namespace jbench::collectors
