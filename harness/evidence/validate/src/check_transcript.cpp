// Each run's protocol transcript (logs/protocol.jsonl): every line is a transcript entry
// (manifests/protocol-line.schema.json) carrying a message of the worker protocol
// (manifests/worker-protocol.schema.json) in the direction its type travels; the harness's times
// never go backwards and lie inside the run; a worker's own time is never later than the harness
// read its line. What the transcript says of each worker is then held against the run
// (transcript_against_run.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string_view>

#include "checks.h"
#include "jbench/schema/json_schema.h"
#include "transcript.h"

namespace jbench::validate {
namespace {

// A transcript as damaged as this says nothing more by listing the rest.
constexpr std::size_t kMaxProblemsPerTranscript = 50;

const std::set<std::string_view> kFromWorker = {
    "hello", "ready", "canary_done", "warmup_done", "result", "measure_done", "bye", "error"};

class TranscriptReader {
 public:
  TranscriptReader(std::string file, bool run_ok, Findings& findings)
      : file_(std::move(file)),
        run_ok_(run_ok),
        findings_(findings),
        line_schema_(JsonSchema::builtin("protocol-line.schema.json")),
        message_schema_(JsonSchema::builtin("worker-protocol.schema.json")) {
    for (const auto* schema : {&line_schema_, &message_schema_}) {
      if (!*schema) add("protocol.malformed", 0, "schema: " + schema->error().message);
    }
  }

  void add(const char* code, std::size_t line, std::string message) {
    if (problems_ == kMaxProblemsPerTranscript) {
      findings_.add("protocol.too_many_problems", file_, "",
                    fmt::format("more than {} problems; the rest are not listed", problems_));
    }
    if (problems_++ >= kMaxProblemsPerTranscript) return;
    findings_.add(code, file_, line == 0 ? "" : fmt::format("line {}", line), std::move(message));
  }

  std::vector<TranscriptEntry> read(const std::string& text);

 private:
  // The entry's message, or a finding. In a run that did not end ok, the lines a worker sent
  // after the protocol broke are what broke it, and are kept unchecked.
  void check_message(TranscriptEntry& e);

  std::string file_;
  bool run_ok_;
  Findings& findings_;
  Result<JsonSchema> line_schema_, message_schema_;
  std::size_t problems_ = 0;
};

std::vector<TranscriptEntry> TranscriptReader::read(const std::string& text) {
  std::vector<TranscriptEntry> out;
  if (!line_schema_ || !message_schema_) return out;
  if (!text.empty() && text.back() != '\n') {
    add("protocol.malformed", 0, "the last line has no newline: the transcript was cut");
  }
  std::size_t start = 0, number = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + start, end - start);
    start = end + 1;
    ++number;
    const Json entry = Json::parse(line, nullptr, false);
    if (entry.is_discarded()) {
      add("protocol.malformed", number, "not a JSON transcript entry");
      continue;
    }
    const auto violations = line_schema_->validate(entry);
    for (const auto& v : violations)
      add("protocol.malformed", number, v.pointer + ": " + v.message);
    if (!violations.empty()) continue;
    const auto t_ns = u64_at(entry, "t_ns");
    const auto worker = u64_at(entry, "worker");
    if (!t_ns || !worker) {  // 20 digits can still overflow 64 bits
      add("protocol.malformed", number, "t_ns or worker does not fit in 64 bits");
      continue;
    }
    TranscriptEntry e;
    e.line = number;
    e.t_ns = *t_ns;
    e.worker = static_cast<std::size_t>(*worker);
    e.from_worker = entry["dir"] == "in";
    e.text = entry["line"].get<std::string>();
    check_message(e);
    out.push_back(std::move(e));
  }
  return out;
}

void TranscriptReader::check_message(TranscriptEntry& e) {
  const Json message = Json::parse(e.text, nullptr, false);
  const bool object =
      message.is_object() && message.contains("type") && message["type"].is_string();
  std::vector<std::string> problems;
  if (!object) {
    problems.push_back("not a JSON object with a string \"type\"");
  } else {
    e.type = message["type"].get<std::string>();
    for (const auto& v : message_schema_->validate(message)) {
      problems.push_back(fmt::format("{} {}: {}", e.type, v.pointer, v.message));
    }
    if (problems.empty() && e.from_worker != (kFromWorker.count(e.type) > 0)) {
      problems.push_back(fmt::format("\"{}\" travels {}, this line {}", e.type,
                                     e.from_worker ? "to the worker" : "from the worker",
                                     e.from_worker ? "came from it" : "went to it"));
    }
  }
  e.conforms = problems.empty();
  if (e.conforms) e.message = message;
  // The first line a worker broke the protocol with ended a failed run: it is evidence, not a
  // finding (transcript_against_run.cpp checks that nothing but the worker's lines follow it).
  if (!run_ok_ && e.from_worker && !e.conforms) return;
  for (auto& p : problems) add("protocol.bad_message", e.line, std::move(p));
}

// The harness's times only go forward and stay inside the run; a worker's own time is never
// later than the harness read its line (the worker stamps a message before writing it, the
// harness stamps the line after reading it, on the same clock).
void check_times(const std::vector<TranscriptEntry>& entries, const Json& run,
                 TranscriptReader& reader) {
  const auto bounds = ordered_boundaries(run);
  const auto bound = [&](const char* name) -> std::optional<std::uint64_t> {
    const auto it = bounds.find(name);
    if (it == bounds.end()) return std::nullopt;
    return it->second;
  };
  const auto run_start = bound("startup_start_ns"), run_end = bound("teardown_end_ns");
  std::uint64_t previous = 0;
  for (const auto& e : entries) {
    if (e.t_ns < previous) {
      reader.add("protocol.not_monotonic", e.line,
                 fmt::format("t_ns {} is before the line before it ({})", e.t_ns, previous));
    }
    previous = std::max(previous, e.t_ns);
    if ((run_start && e.t_ns < *run_start) || (run_end && e.t_ns > *run_end)) {
      reader.add(
          "protocol.outside_phase", e.line,
          fmt::format("t_ns {} is outside the run [startup_start_ns, teardown_end_ns]", e.t_ns));
    }
    if (!e.conforms || !e.from_worker || !e.message.contains("t_ns")) continue;
    const auto sent = u64_at(e.message, "t_ns");
    if (sent && *sent > e.t_ns) {
      reader.add("protocol.worker_clock", e.line,
                 fmt::format("\"{}\" says it was sent at {}, after the harness read it at {}",
                             e.type, *sent, e.t_ns));
    }
  }
}

}  // namespace

void check_transcripts(const BundleView& bundle, Findings& findings) {
  for (const auto& r : bundle.runs) {
    if (!r.run) continue;
    const std::string file = r.dir + "/logs/protocol.jsonl";
    const auto text = read_document(bundle.root, file, findings);
    if (!text) continue;
    const bool ok = string_at(*r.run, "status") == "ok";
    TranscriptReader reader(file, ok, findings);
    const auto entries = reader.read(*text);
    check_times(entries, *r.run, reader);
    check_transcript_against_run(r, file, entries, ok, findings);
  }
}

}  // namespace jbench::validate
