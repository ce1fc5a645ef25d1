// The catalogue of lies, continued: the protocol transcript (logs/protocol.jsonl) against what
// the run says and what the workers sent.
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "mutation_edits.h"
#include "mutations.h"

namespace jbench::test {
namespace {

using Json = nlohmann::json;

// Edits a run's protocol transcript, one parsed entry per line, then rewrites SHA256SUMS.
std::function<void(const BundleEditor&)> edit_transcript(
    std::string run, std::function<void(std::vector<Json>&)> f) {
  return [run = std::move(run), f = std::move(f)](const BundleEditor& e) {
    const std::string file = run_file(run, "logs/protocol.jsonl");
    std::vector<Json> lines;
    std::istringstream in(e.text(file));
    for (std::string line; std::getline(in, line);) lines.push_back(Json::parse(line));
    f(lines);
    std::string text;
    for (const auto& l : lines) text += (l.is_string() ? l.get<std::string>() : l.dump()) + "\n";
    e.write_text(file, text);
    e.rewrite_sums();
  };
}

// The entry of the transcript that carries the first message of `type`.
Json& entry_of(std::vector<Json>& lines, const std::string& type) {
  for (auto& l : lines) {
    if (Json::parse(l["line"].get<std::string>())["type"] == type) return l;
  }
  std::abort();  // the fixture's transcripts have every message of the session
}

// Edits the message an entry carries.
void edit_message(Json& entry, const std::function<void(Json&)>& f) {
  Json message = Json::parse(entry["line"].get<std::string>());
  f(message);
  entry["line"] = message.dump();
}

}  // namespace

std::vector<Mutation> transcript_mutations() {
  const std::string writer_run_json = run_file(kWriterRun, "run.json");
  const std::string mixed_run_json = run_file(kMixedRun, "run.json");
  return {
      {"transcript-missing",
       {"document.missing"},
       "a run's logs/protocol.jsonl deleted",
       [](const BundleEditor& e) {
         e.remove(run_file(kMixedRun, "logs/protocol.jsonl"));
         e.rewrite_sums();
       }},
      {"transcript-garbage-line",
       {"protocol.malformed"},
       "a line that is not JSON inserted into the transcript",
       edit_transcript(kMixedRun,
                       [](std::vector<Json>& l) { l.insert(l.begin() + 3, "not json {"); })},
      {"transcript-bad-message",
       {"protocol.bad_message"},
       "canary_done with errno renamed errno_name",
       edit_transcript(kMixedRun,
                       [](std::vector<Json>& l) {
                         edit_message(entry_of(l, "canary_done"), [](Json& m) {
                           m["errno_name"] = m["errno"];
                           m.erase("errno");
                         });
                       })},
      {"transcript-not-monotonic",
       {"protocol.not_monotonic"},
       "the harness's times of ready and the canary that follows it swapped",
       edit_transcript(kMixedRun,
                       [](std::vector<Json>& l) {
                         std::swap(entry_of(l, "ready")["t_ns"], entry_of(l, "canary")["t_ns"]);
                       })},
      {"transcript-outside-phase",
       {"protocol.outside_phase"},
       "the measure message sent 1 ns before measure_start_ns",
       [](const BundleEditor& e) {
         const Json run = e.json(run_file(kMixedRun, "run.json"));
         const std::uint64_t start = ns(run["boundaries"]["measure_start_ns"]);
         edit_transcript(kMixedRun, [start](std::vector<Json>& l) {
           entry_of(l, "measure")["t_ns"] = std::to_string(start - 1);
         })(e);
       }},
      {"transcript-worker-clock",
       {"protocol.worker_clock"},
       "measure_done says it was sent after the harness read it",
       edit_transcript(kMixedRun,
                       [](std::vector<Json>& l) {
                         Json& done = entry_of(l, "measure_done");
                         const std::uint64_t read = ns(done["t_ns"]);
                         edit_message(done,
                                      [read](Json& m) { m["t_ns"] = std::to_string(read + 1); });
                       })},
      {"transcript-session-cut",
       {"protocol.sequence", "protocol.run_mismatch"},
       "an ok run's transcript without the worker's bye (run.json still has its teardown_ns)",
       edit_transcript(kMixedRun, [](std::vector<Json>& l) { l.pop_back(); })},
      {"transcript-result-differs",
       {"protocol.result_mismatch"},
       "the result message sent counts one write more than raw/worker-0.result.json",
       edit_transcript(kWriterRun,
                       [](std::vector<Json>& l) {
                         edit_message(entry_of(l, "result"), [](Json& m) {
                           m["writes"] = m["writes"].get<std::uint64_t>() + 1;
                         });
                       })},
      {"transcript-wrong-identity",
       {"protocol.identity_mismatch"},
       "hello from a pid that is not the cohort's worker 0",
       edit_transcript(kMixedRun,
                       [](std::vector<Json>& l) {
                         edit_message(entry_of(l, "hello"),
                                      [](Json& m) { m["pid"] = m["pid"].get<int>() + 1; });
                       })},
      {"transcript-configure-mismatch",
       // The configure message is also what the provenance index hashed.
       {"protocol.configure_mismatch", "provenance.configuration_mismatch"},
       "the mixed run's worker configured as a writer",
       edit_transcript(kMixedRun,
                       [](std::vector<Json>& l) {
                         edit_message(entry_of(l, "configure"),
                                      [](Json& m) { m["lane"] = "writer"; });
                       })},
      {"transcript-statements-differ",
       {"protocol.statements_mismatch"},
       "ready classifies a statement otherwise than the result does",
       edit_transcript(kMixedRun,
                       [](std::vector<Json>& l) {
                         edit_message(entry_of(l, "ready"), [](Json& m) {
                           m["statements"][0]["plan_class"] = "range_scan";
                         });
                       })},
      {"transcript-unknown-worker",
       {"protocol.unknown_worker"},
       "a line of worker 1 in a run of one worker",
       edit_transcript(kMixedRun,
                       [](std::vector<Json>& l) {
                         Json extra = l.back();
                         extra["worker"] = 1;
                         l.push_back(extra);
                       })},
      {"run-times-disagree",
       {"protocol.run_mismatch"},
       "run.json's ready_t_ns of worker 0 is not the time its ready message says",
       edit(mixed_run_json,
            [](Json& d) {
              auto& w = d["workers"][0];
              w["ready_t_ns"] = std::to_string(ns(w["ready_t_ns"]) + 1);
            })},
  };
}

}  // namespace jbench::test
