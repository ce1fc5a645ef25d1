// The compiled tracer's probe where jbench is built with it: a real load and attach of a tracer
// of the probe's own, closed at once (the session's tracer in libbpf_backend.cpp is never used).
#include <bpf/libbpf.h>
#include <fmt/format.h>

#include "jbench/collectors/syscall/compiled_tracer.h"
#include "libbpf_tracer.h"

namespace jbench::collectors {

CompiledTracerProbe probe_compiled_tracer(const CompiledTracerProbeOptions& options) {
  const CompiledTracerFacts facts = read_compiled_tracer_facts(options.root);
  std::optional<CompiledTracerLoad> load;
  // Without BTF the load cannot relocate: no attempt (this also keeps a test root without BTF
  // from loading into the real kernel).
  if (options.try_load && facts.btf_present) {
    load.emplace();
    if (const auto tracer = syscall_detail::LibbpfTracer::open()) {
      load->loaded = true;
      load->load_ns = (*tracer)->attach_ns();
    } else {
      load->error = tracer.error().sys_errno;
      load->why = tracer.error().message.empty()
                      ? "the compiled tracer did not load (no reason given)"
                      : tracer.error().message;
    }
  }
  CompiledTracerProbe p = judge_compiled_tracer(true, facts, load);
  p.libbpf_version = fmt::format("libbpf {}.{}", libbpf_major_version(), libbpf_minor_version());
  return p;
}

}  // namespace jbench::collectors
