// The transcript held against the rest of the run: run.json (its cell, seed, cohort and the
// times it took from the messages) and raw/worker-<i>.result.json (the result message as sent).
#include <fmt/format.h>

#include <array>
#include <map>
#include <set>
#include <string_view>

#include "transcript.h"

namespace jbench::validate {
namespace {

// One worker's session in an ok run, line by line (docs/worker-protocol.md, "The session").
struct Step {
  const char* type;
  bool from_worker;
};
constexpr std::array<Step, 12> kSession = {{{"hello", true},
                                            {"configure", false},
                                            {"ready", true},
                                            {"canary", false},
                                            {"canary_done", true},
                                            {"start", false},
                                            {"warmup_done", true},
                                            {"measure", false},
                                            {"measure_done", true},
                                            {"result", true},
                                            {"exit", false},
                                            {"bye", true}}};

// run.json's per-worker times, each copied from a message the worker sent.
struct CopiedTime {
  const char* run_key;
  const char* type;
  const char* field;
};
constexpr std::array<CopiedTime, 8> kCopiedTimes = {
    {{"hello_t_ns", "hello", "t_ns"},
     {"ready_t_ns", "ready", "t_ns"},
     {"open_ns", "ready", "open_ns"},
     {"canary_t_ns", "canary_done", "t_ns"},
     {"warmup_done_t_ns", "warmup_done", "t_ns"},
     {"measure_start_ns", "measure_done", "t_start_ns"},
     {"measure_end_ns", "measure_done", "t_end_ns"},
     {"teardown_ns", "bye", "teardown_ns"}}};

// Where each message of the session belongs on the run's timeline: from one boundary to
// another. A bound the run does not have (it ended before that phase) is not checked.
struct Window {
  const char* from;
  const char* to;
};
Window window_of(std::string_view type) {
  if (type == "start" || type == "warmup_done") return {"warmup_start_ns", "warmup_end_ns"};
  if (type == "measure" || type == "measure_done" || type == "result") {
    return {"measure_start_ns", "measure_end_ns"};
  }
  if (type == "exit" || type == "bye") return {"teardown_start_ns", "teardown_end_ns"};
  return {"startup_start_ns", "warmup_start_ns"};  // hello .. canary_done
}

// The messages of one worker that followed the protocol, by type (each type once per session).
using Session = std::map<std::string, const TranscriptEntry*>;

class Checker {
 public:
  Checker(const RunView& r, std::string file, bool ok, Findings& findings)
      : r_(r), run_(*r.run), file_(std::move(file)), ok_(ok), findings_(findings) {}

  void add(const char* code, std::size_t line, std::string message) {
    findings_.add(code, file_, line == 0 ? "" : fmt::format("line {}", line), std::move(message));
  }

  // The lines of one worker follow the session; in a run that did not end ok they may stop
  // anywhere, and end with what the worker sent instead of the next message.
  Session sequence(std::size_t worker, const std::vector<const TranscriptEntry*>& lines) {
    Session session;
    std::size_t next = 0;
    const TranscriptEntry* broke = nullptr;
    for (const TranscriptEntry* e : lines) {
      if (broke) {
        if (!e->from_worker) {
          add("protocol.sequence", e->line,
              fmt::format("the harness wrote to worker {} after line {} broke the protocol", worker,
                          broke->line));
          return session;
        }
        continue;
      }
      // A line whose message is damaged but in its place keeps its place (the damage is
      // reported as such); the checks below only read messages that conform.
      if (next < kSession.size() && !e->type.empty() && e->type == kSession[next].type &&
          e->from_worker == kSession[next].from_worker && (e->conforms || ok_)) {
        session[e->type] = e;
        ++next;
        continue;
      }
      broke = e;
      if (ok_ || !e->from_worker) {
        // A line that is no message at all was reported as such already.
        if (e->conforms) {
          add("protocol.sequence", e->line,
              fmt::format("worker {}: \"{}\" {} where the protocol has {}", worker, e->type,
                          e->from_worker ? "from the worker" : "from the harness",
                          next < kSession.size() ? fmt::format("\"{}\"", kSession[next].type)
                                                 : std::string("nothing more")));
        }
        return session;
      }
    }
    if (ok_ && next < kSession.size()) {
      add("protocol.sequence", 0,
          fmt::format("the run is ok, but worker {}'s session ends before \"{}\"", worker,
                      kSession[next].type));
    }
    return session;
  }

  void windows(const Session& session, const std::map<std::string, std::uint64_t>& bounds) {
    for (const auto& [type, e] : session) {
      if (!e->conforms) continue;
      const Window w = window_of(type);
      const auto from = bounds.find(w.from), to = bounds.find(w.to);
      if ((from != bounds.end() && e->t_ns < from->second) ||
          (to != bounds.end() && e->t_ns > to->second)) {
        add("protocol.outside_phase", e->line,
            fmt::format("\"{}\" at {} is outside its phase [{}, {}]", type, e->t_ns, w.from, w.to));
      }
    }
  }

  // Whether a cohort member of `worker` is the incarnation its hello names; `registered` says
  // whether the cohort has a member of that worker at all.
  bool registered_as(std::size_t worker, const TranscriptEntry& hello) {
    registered_ = false;
    const Json* cohort = member(run_, "cohort");
    const Json* members = cohort ? member(*cohort, "members") : nullptr;
    if (!members || !members->is_array()) return true;  // the schema reports it
    for (const auto& m : *members) {
      const Json* index = member(m, "worker");
      if (!index || *index != worker) continue;
      // Admitted before its exec and never confirmed by a hello (runtime_id null): not registered.
      if (!string_at(m, "runtime_id")) continue;
      registered_ = true;
      if (u64_at(m, "pid") == u64_at(hello.message, "pid") &&
          string_at(m, "runtime_id") == string_at(hello.message, "runtime_id")) {
        return true;
      }
    }
    return false;
  }

  // The worker announced the incarnation the cohort registered for it, and runs the bridge as
  // asked.
  void identity(std::size_t worker, const TranscriptEntry& hello) {
    // The worker runs the trace bridge in the mode the run asked for (a worker older than the
    // field does not say).
    const Json* mode = member(run_, "trace_mode");
    const auto asked = mode ? string_at(*mode, "bridge_mode") : std::nullopt;
    const auto runs = string_at(hello.message, "bridge");
    if (asked && runs && *asked != *runs) {
      add("protocol.configure_mismatch", hello.line,
          fmt::format("worker {} runs the trace bridge in mode {}, the run asked for {}", worker,
                      *runs, *asked));
    }
    if (registered_as(worker, hello)) return;
    // A run that failed before registering has no member to compare with.
    if (!registered_ && !ok_) return;
    add("protocol.identity_mismatch", hello.line,
        fmt::format("worker {} said hello as pid {}, runtime id {}: no cohort member of worker {} "
                    "is that incarnation",
                    worker, hello.message["pid"].dump(), hello.message["runtime_id"].dump(),
                    worker));
  }

  // The harness configured the worker for the run's cell, seed and phases.
  void configuration(std::size_t worker, const TranscriptEntry& configure) {
    const Json& c = configure.message;
    const Json* values = member(run_, "values");
    const Json* dataset = member(run_, "dataset");
    const Json* params = member(c, "params");
    const std::vector<std::pair<std::string, std::pair<const Json*, const Json*>>> pairs = {
        {"worker_index", {member(c, "worker_index"), nullptr}},
        {"seed", {member(c, "seed"), member(run_, "seed")}},
        {"lane", {member(c, "lane"), values ? member(*values, "lane") : nullptr}},
        {"connection", {member(c, "connection"), values ? member(*values, "connection") : nullptr}},
        {"phases", {member(c, "phases"), member(run_, "phases")}},
        {"params/page_cache_kib",
         {params ? member(*params, "page_cache_kib") : nullptr,
          dataset ? member(*dataset, "page_cache_kib") : nullptr}},
    };
    const Json index = worker;
    for (const auto& [name, p] : pairs) {
      const Json* run_value = name == "worker_index" ? &index : p.second;
      if (!p.first || !run_value || *p.first != *run_value) {
        add("protocol.configure_mismatch", configure.line,
            fmt::format("worker {} was configured with {} = {}, the run's is {}", worker, name,
                        p.first ? p.first->dump() : "(none)",
                        run_value ? run_value->dump() : "(none)"));
      }
    }
  }

  // ready's statements are the classification the result reports (a worker older than the
  // field sends none in ready).
  void statements(std::size_t worker, const Session& session) {
    const auto ready = session.find("ready"), result = session.find("result");
    if (ready == session.end() || result == session.end() || !ready->second->conforms ||
        !result->second->conforms) {
      return;
    }
    const Json* announced = member(ready->second->message, "statements");
    if (!announced) return;
    const Json* reported = member(result->second->message, "statements");
    if (reported && *reported == *announced) return;
    add("protocol.statements_mismatch", ready->second->line,
        fmt::format("worker {}'s ready lists other statements than its result (line {})", worker,
                    result->second->line));
  }

  // run.json's per-worker times are the messages' own.
  void copied_times(std::size_t worker, const Session& session) {
    const Json* workers = member(run_, "workers");
    if (!workers || !workers->is_array() || worker >= workers->size()) return;
    const Json& w = (*workers)[worker];
    for (const auto& t : kCopiedTimes) {
      const auto it = session.find(t.type);
      if (it != session.end() && !it->second->conforms) continue;  // reported as damaged
      const Json* said = it == session.end() ? nullptr : member(it->second->message, t.field);
      const Json* recorded = member(w, t.run_key);
      const Json none = nullptr;
      if ((recorded ? *recorded : none) == (said ? *said : none)) continue;
      // A run that failed may have read a message it never took from its inbox: run.json then
      // has no time for it, which is the truth about what the harness used.
      if (!ok_ && (!recorded || recorded->is_null())) continue;
      add("protocol.run_mismatch", it == session.end() ? 0 : it->second->line,
          fmt::format("run.json /workers/{}/{} is {}, the worker's \"{}\" says {}", worker,
                      t.run_key, recorded ? recorded->dump() : "(absent)", t.type,
                      said ? said->dump() : "(nothing)"));
    }
  }

  // raw/worker-<k>.result.json is the result message of the worker it names, exactly as sent.
  // (A run that failed keeps only the results that arrived, so a result line may have no raw
  // copy there; a raw result always has its line.)
  void results(const std::vector<Session>& sessions) {
    if (!r_.results) return;  // unusable raw results were reported when they were loaded
    std::set<std::uint64_t> kept_workers;
    for (std::size_t k = 0; k < r_.results->size(); ++k) {
      const Json& kept = (*r_.results)[k];
      const auto worker = u64_at(kept, "worker_index");
      if (!worker) continue;  // the schema reports it
      kept_workers.insert(*worker);
      const auto it =
          *worker < sessions.size() ? sessions[*worker].find("result") : Session::const_iterator{};
      if (*worker >= sessions.size() || it == sessions[*worker].end()) {
        add("protocol.result_mismatch", 0,
            fmt::format("raw/worker-{}.result.json (worker {}) has no result message in the "
                        "transcript",
                        k, *worker));
        continue;
      }
      if (kept == it->second->message) continue;
      const Json patch = Json::diff(it->second->message, kept);
      add("protocol.result_mismatch", it->second->line,
          fmt::format("raw/worker-{}.result.json differs from the result message worker {} sent, "
                      "first at {} ({} differences)",
                      k, *worker, patch.empty() ? "" : patch[0].value("path", ""), patch.size()));
    }
    if (!ok_) return;
    for (std::size_t w = 0; w < sessions.size(); ++w) {
      const auto it = sessions[w].find("result");
      if (it != sessions[w].end() && !kept_workers.count(w)) {
        add("protocol.result_mismatch", it->second->line,
            fmt::format("worker {} sent a result that raw/ does not keep", w));
      }
    }
  }

 private:
  const RunView& r_;
  const Json& run_;
  std::string file_;
  bool ok_;
  Findings& findings_;
  bool registered_ = false;
};

}  // namespace

std::map<std::string, std::uint64_t> ordered_boundaries(const Json& run) {
  std::map<std::string, std::uint64_t> out;
  const Json* b = member(run, "boundaries");
  if (!b) return out;
  std::uint64_t previous = 0;
  for (const char* name :
       {"startup_start_ns", "warmup_start_ns", "warmup_end_ns", "measure_start_ns",
        "measure_end_ns", "teardown_start_ns", "teardown_end_ns"}) {
    const auto t = u64_at(*b, name);
    if (!t) continue;
    if (*t < previous) return {};
    previous = *t;
    out[name] = *t;
  }
  return out;
}

void check_transcript_against_run(const RunView& r, const std::string& file,
                                  const std::vector<TranscriptEntry>& entries, bool run_ok,
                                  Findings& findings) {
  Checker check(r, file, run_ok, findings);
  const Json* workers = member(*r.run, "workers");
  const std::size_t count = workers && workers->is_array() ? workers->size() : 0;
  std::vector<std::vector<const TranscriptEntry*>> by_worker(count);
  for (const auto& e : entries) {
    if (e.worker >= count) {
      check.add("protocol.unknown_worker", e.line,
                fmt::format("worker {} is not one of the run's {} workers", e.worker, count));
      continue;
    }
    by_worker[e.worker].push_back(&e);
  }
  const auto bounds = ordered_boundaries(*r.run);
  std::vector<Session> sessions;
  for (std::size_t w = 0; w < count; ++w) {
    sessions.push_back(check.sequence(w, by_worker[w]));
    const Session& session = sessions.back();
    check.windows(session, bounds);
    if (const auto hello = session.find("hello");
        hello != session.end() && hello->second->conforms) {
      check.identity(w, *hello->second);
    }
    if (const auto configure = session.find("configure");
        configure != session.end() && configure->second->conforms) {
      check.configuration(w, *configure->second);
    }
    check.copied_times(w, session);
    check.statements(w, session);
  }
  check.results(sessions);
}

}  // namespace jbench::validate
