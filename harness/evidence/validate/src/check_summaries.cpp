// Summaries recomputed from the raw records, and lane labels against what the runs executed.
#include <fmt/format.h>

#include "checks.h"
#include "jbench/collectors/modes/summaries.h"
#include "jbench/run_summaries/lanes.h"
#include "jbench/run_summaries/summary.h"

namespace jbench::validate {
namespace {

// A bundle that lies in many places would otherwise list every number of a histogram.
constexpr std::size_t kMaxDifferencesPerSummary = 5;

std::string shortened(const Json& value) {
  std::string text = value.dump();
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

void compare_summary(const std::string& root, const RunView& r, Findings& findings) {
  const std::string file = r.dir + "/summary.json";
  Json recomputed = summarize_run(*r.results, *r.run);
  recomputed["collectors"] = collectors::summarize_collectors(root + "/" + r.dir, *r.run);
  if (recomputed == *r.summary) return;
  // Each patch operation names one place where stored and recomputed differ.
  const Json patch = Json::diff(*r.summary, recomputed);
  std::size_t shown = 0;
  for (const auto& op : patch) {
    const std::string path = op.value("path", "");
    if (shown == kMaxDifferencesPerSummary) {
      findings.add("summary.mismatch", file, "",
                   fmt::format("and {} more differences", patch.size() - shown));
      break;
    }
    ++shown;
    const Json::json_pointer pointer(path);
    const std::string stored =
        r.summary->contains(pointer) ? shortened(r.summary->at(pointer)) : "(absent)";
    const std::string expected =
        recomputed.contains(pointer) ? shortened(recomputed.at(pointer)) : "(absent)";
    findings.add("summary.mismatch", file, path,
                 fmt::format("stored {}, recomputed from raw/ and run.json {}", stored, expected));
  }
}

// A run's lane label against what its workers did as a whole (jbench/run_summaries/lanes.h, the
// rule the runner applied): a label the run did not live up to would file its numbers under the
// wrong cell.
void check_lane(const RunView& r, Findings& findings) {
  const Json* values = member(*r.run, "values");
  const auto lane = values ? string_at(*values, "lane") : std::nullopt;
  if (!lane) return;
  const Json* measure = member(*r.summary, "measure");
  const std::uint64_t reads = measure ? u64_at(*measure, "reads").value_or(0) : 0;
  const std::uint64_t writes = measure ? u64_at(*measure, "writes").value_or(0) : 0;
  const std::string file = r.dir + "/summary.json";
  const LaneRule rule = lane_rule(*lane);
  if (rule.needs_reads && reads == 0) {
    findings.add("lane.no_reads", file, "/measure/reads",
                 fmt::format("the run is labelled '{}' but measured no reads", *lane));
  }
  if (rule.needs_writes && writes == 0) {
    findings.add("lane.no_writes", file, "/measure/writes",
                 fmt::format("the run is labelled '{}' but measured no writes", *lane));
  }
  if (rule.forbids_reads && reads > 0) {
    findings.add("lane.forbidden_reads", file, "/measure/reads",
                 fmt::format("the run is labelled '{}' but measured {} reads", *lane, reads));
  }
  if (rule.forbids_writes && writes > 0) {
    findings.add("lane.forbidden_writes", file, "/measure/writes",
                 fmt::format("the run is labelled '{}' but measured {} writes", *lane, writes));
  }
}

}  // namespace

void check_summaries(const BundleView& bundle, Findings& findings) {
  for_each_run(bundle, findings, [&bundle](const RunView& r, Findings& found) {
    if (!r.run || !r.summary) return;
    if (r.results) compare_summary(bundle.root, r, found);
    if (string_at(*r.run, "status") == "ok") check_lane(r, found);
  });
}

}  // namespace jbench::validate
