// What the manifest says execution delivered (/execution) against what its run list shows: a
// value may only be called measured when one of its runs ended ok (docs/bundle.md, "Axis states
// after execution").
#include <fmt/format.h>

#include "checks.h"
#include "jbench/run_summaries/execution.h"

namespace jbench::validate {

void check_execution(const BundleView& bundle, Findings& findings) {
  if (!bundle.manifest) return;
  const Json& manifest = *bundle.manifest;
  const Json* runs = member(manifest, "runs");
  const Json* plan = member(manifest, "plan");
  const Json* axes = plan ? member(*plan, "axes") : nullptr;
  const Json* execution = member(manifest, "execution");
  if (!runs || !axes || !execution) return;  // the schema check reports what is missing

  const Json expected = execution_states(*axes, *runs);
  const Json* stored = member(*execution, "axes");
  if (!stored || *stored == expected) return;
  // Name the first value that differs, so the finding points at one place.
  for (std::size_t a = 0; a < expected.size(); ++a) {
    const Json& want = expected[a]["values"];
    const Json* have_axis = stored->is_array() && a < stored->size() ? &(*stored)[a] : nullptr;
    const Json* have = have_axis ? member(*have_axis, "values") : nullptr;
    for (std::size_t v = 0; v < want.size(); ++v) {
      const Json* got = have && have->is_array() && v < have->size() ? &(*have)[v] : nullptr;
      if (got && *got == want[v]) continue;
      findings.add("manifest.execution_mismatch", "manifest.json",
                   fmt::format("/execution/axes/{}/values/{}", a, v),
                   fmt::format("{}={}: the manifest says {}, the run list gives {}",
                               expected[a].value("axis", ""), want[v].value("value", ""),
                               got ? got->dump() : std::string("(absent)"), want[v].dump()));
      return;
    }
  }
  findings.add("manifest.execution_mismatch", "manifest.json", "/execution/axes",
               "the execution states do not match the plan's axes and the run list");
}

}  // namespace jbench::validate
