// `jbench export` on a bundle the real `jbench run` left: a tiny matrix with two writers, trace
// baseline and full (tests/fixtures/export/traced.yaml). Checked against the bundle's own raw
// records.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "bundle_sums.h"
#include "export_support.h"
#include "raw_lines.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Every record line of a raw file (plain or compressed, as every reader reads it), parsed.
std::vector<json> records(const std::string& path) {
  std::vector<json> out;
  for (const auto& line : raw_lines(path)) {
    json j = json::parse(line);
    if (j["kind"] == "record") out.push_back(std::move(j));
  }
  return out;
}

std::string micros_text(std::uint64_t ns) {
  char frac[8];
  std::snprintf(frac, sizeof frac, "%03u", static_cast<unsigned>(ns % 1000));
  return std::to_string(ns / 1000) + "." + frac;
}

std::uint64_t text_ns(const std::string& micros) {  // "12.345" -> 12345
  const auto dot = micros.find('.');
  return std::stoull(micros.substr(0, dot)) * 1000 + std::stoull(micros.substr(dot + 1));
}

// The first three frames of a folded line: "run;worker N pid P;tid T".
std::string thread_of(const std::string& stack) {
  std::size_t cut = 0;
  for (int i = 0; i < 3; ++i) cut = stack.find(';', cut + 1);
  return stack.substr(0, cut);
}

class ExportRealBundle : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    bundle_ = dir_->path() + "/out/b";
    ProcessOptions options;
    options.timeout = std::chrono::seconds(120);
    const auto made = run_process({JBENCH_BINARY, "run", export_fixture("traced.yaml"), "--out",
                                   dir_->path() + "/out", "--name", "b"},
                                  options);
    ASSERT_EQ(made.exit_code, 0) << made.err;
    for (const auto& e : fs::directory_iterator(bundle_ + "/runs")) {
      if (e.path().filename().string().find(".full.") != std::string::npos) {
        full_run_ = e.path().filename().string();
      }
    }
    const auto r = run_jbench({"export", bundle_, "--format", "chrome-json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    text_ = new std::string(r.out);
    trace_ = new json(json::parse(r.out));
  }
  static void TearDownTestSuite() {
    delete trace_;
    delete text_;
    delete dir_;
  }
  static std::string raw(const std::string& name) {
    return bundle_ + "/runs/" + full_run_ + "/raw/" + name;
  }
  static std::uint64_t origin() {
    return std::stoull((*trace_)["otherData"]["origin_ns"].get<std::string>());
  }
  static std::map<std::int64_t, std::string> thread_names() {
    std::map<std::int64_t, std::string> names;
    for (const auto& e : (*trace_)["traceEvents"]) {
      if (e["ph"] == "M" && e["name"] == "thread_name") names[e["tid"]] = e["args"]["name"];
    }
    return names;
  }

  static TempDir* dir_;
  static std::string bundle_;
  static std::string full_run_;
  static std::string* text_;
  static json* trace_;
};
TempDir* ExportRealBundle::dir_ = nullptr;
std::string ExportRealBundle::bundle_;
std::string ExportRealBundle::full_run_;
std::string* ExportRealBundle::text_ = nullptr;
json* ExportRealBundle::trace_ = nullptr;

TEST_F(ExportRealBundle, exports_the_traced_run_only_with_a_process_per_worker) {
  ASSERT_FALSE(full_run_.empty());
  const auto& other = (*trace_)["otherData"];
  EXPECT_EQ(other["bundle_valid"], true);
  EXPECT_EQ((*trace_)["displayTimeUnit"], "ns");
  ASSERT_EQ(other["runs"].size(), 1u) << other.dump();  // the baseline run has no records
  EXPECT_EQ(other["runs"][0]["id"], full_run_);
  std::set<std::string> names;
  for (const auto& e : (*trace_)["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") names.insert(e["args"]["name"]);
  }
  const json run = json::parse(slurp(bundle_ + "/runs/" + full_run_ + "/run.json"));
  for (const auto& m : run["cohort"]["members"]) {
    const std::string want = "worker " + std::to_string(m["worker"].get<int>()) + " (pid " +
                             std::to_string(m["pid"].get<int>()) + ", " + full_run_ + ")";
    EXPECT_TRUE(names.contains(want)) << want;
  }
}

TEST_F(ExportRealBundle, every_begin_has_its_end_on_its_own_track_properly_nested) {
  EXPECT_EQ(unpaired_slices(*trace_), "");
  std::size_t begins = 0;
  for (const auto& e : (*trace_)["traceEvents"]) begins += e["ph"] == "B";
  std::size_t spans = 0;
  for (const char* w : {"bridge/worker-0.events.jsonl.zst", "bridge/worker-1.events.jsonl.zst"}) {
    for (const auto& r : records(raw(w))) spans += r["type"] == "span_begin";
  }
  EXPECT_GT(spans, 0u);
  EXPECT_EQ(begins, spans);
}

// Every call and every interval off the CPU is a complete event: the calls as "syscall", the
// intervals as the scheduler's slices ("sched"), each with who woke the thread where it slept.
TEST_F(ExportRealBundle, every_call_is_a_complete_event_with_its_args) {
  std::size_t calls = 0;
  std::map<std::string, std::size_t> raw_by;  // "cat name woken_by waker_pid" -> records
  for (const auto& r : records(raw("syscall.events.jsonl.zst"))) {
    if (r["type"] != "syscall") continue;
    ++calls;
    const std::string name = r["syscall"];
    ++raw_by[(name.starts_with("off-cpu:") ? "sched " : "syscall ") + name + " " +
             r.value("woken_by", "-") + " " + std::to_string(r.value("waker_pid", 0))];
  }
  std::size_t complete = 0;
  std::map<std::string, std::size_t> exported_by;
  for (const auto& e : (*trace_)["traceEvents"]) {
    if (e["ph"] != "X" || e["cat"] == "wakeup") continue;  // a wake-up's flow ends: elsewhere
    ++complete;
    EXPECT_GE(e["dur"].get<double>(), 0.0);
    for (const char* arg : {"fd", "path", "request", "result"}) {
      EXPECT_TRUE(e["args"].contains(arg)) << e.dump();
    }
    ++exported_by[e["cat"].get<std::string>() + " " + e["name"].get<std::string>() + " " +
                  e["args"].value("woken_by", "-") + " " +
                  std::to_string(e["args"].value("waker_pid", 0))];
  }
  EXPECT_GT(calls, 0u);
  EXPECT_EQ(complete, calls);
  EXPECT_EQ(exported_by, raw_by);
  EXPECT_TRUE(std::any_of(raw_by.begin(), raw_by.end(), [](const auto& kv) {
    return kv.first.starts_with("sched ");
  })) << "no interval off the CPU in the full run: the sched slices went untested";
}

// Every wake-up a raw record gives with its time, by a thread of a cohort process other than the
// woken one, is one flow at that time from the waker's thread to the woken one; nothing else is.
// (Here these are mostly the bridge's writer thread ending its worker's wait at teardown, when
// there was one; tests/fixtures/export/wakeups always has two.)
TEST_F(ExportRealBundle, every_wake_up_by_a_cohort_thread_with_its_time_is_one_flow) {
  const json run = json::parse(slurp(bundle_ + "/runs/" + full_run_ + "/run.json"));
  std::set<std::int64_t> cohort;
  for (const auto& m : run["cohort"]["members"]) cohort.insert(m["pid"].get<std::int64_t>());
  std::multiset<std::string> raw_flows;  // "waker_tid>woken_tid@ts"
  for (const auto& r : records(raw("syscall.events.jsonl.zst"))) {
    if (r["type"] != "syscall" || r.value("woken_by", "") != "task" || !r.contains("woken_ns")) {
      continue;
    }
    if (!cohort.contains(r["waker_pid"].get<std::int64_t>()) || r["waker_tid"] == r["tid"]) {
      continue;
    }
    raw_flows.insert(std::to_string(r["waker_tid"].get<std::int64_t>()) + ">" +
                     std::to_string(r["tid"].get<std::int64_t>()) + "@" +
                     micros_text(std::stoull(r["woken_ns"].get<std::string>()) - origin()));
  }
  std::map<std::int64_t, json> outs, ins;  // by bind_id
  for (const auto& e : (*trace_)["traceEvents"]) {
    if (e["ph"] != "X" || e["cat"] != "wakeup") continue;
    (e.value("flow_out", false) ? outs : ins)[e["bind_id"].get<std::int64_t>()] = e;
  }
  std::multiset<std::string> exported;
  for (const auto& [id, out] : outs) {
    ASSERT_TRUE(ins.contains(id)) << out;
    EXPECT_EQ(ins[id]["ts"], out["ts"]);
    exported.insert(
        std::to_string(out["tid"].get<std::int64_t>()) + ">" +
        std::to_string(ins[id]["tid"].get<std::int64_t>()) + "@" +
        micros_text(static_cast<std::uint64_t>(std::llround(out["ts"].get<double>() * 1000.0))));
  }
  EXPECT_EQ(outs.size(), ins.size());
  EXPECT_EQ(exported, raw_flows);
}

TEST_F(ExportRealBundle, timestamps_are_exact_microseconds_that_give_back_the_raw_nanoseconds) {
  const std::regex three(R"(\d+\.\d{3})");
  for (const auto& t : time_texts(*text_)) EXPECT_TRUE(std::regex_match(t, three)) << t;
  // Some calls, each found by its exact text, and spans' begins.
  std::size_t checked = 0;
  for (const auto& r : records(raw("syscall.events.jsonl.zst"))) {
    if (r["type"] != "syscall" || checked++ % 37 != 0) continue;
    const std::uint64_t t = std::stoull(r["t_ns"].get<std::string>());
    const std::string want =
        "\"tid\":" + std::to_string(r["tid"].get<int>()) + ",\"ts\":" + micros_text(t - origin()) +
        ",\"dur\":" + micros_text(std::stoull(r["duration_ns"].get<std::string>()));
    EXPECT_NE(text_->find(want), std::string::npos) << want;
    EXPECT_EQ(text_ns(micros_text(t - origin())) + origin(), t);
  }
  EXPECT_GT(checked, 10u);
  for (const auto& r : records(raw("bridge/worker-1.events.jsonl.zst"))) {
    if (r["type"] != "span_begin") continue;
    const std::uint64_t t = std::stoull(r["t_ns"].get<std::string>());
    const std::string want = ",\"ts\":" + micros_text(t - origin()) +
                             ",\"cat\":\"span\",\"name\":\"" + r["name"].get<std::string>();
    EXPECT_NE(text_->find(want), std::string::npos) << want;
  }
}

TEST_F(ExportRealBundle, the_bridge_writer_thread_has_a_track_of_its_own_named_the_observer) {
  std::set<std::int64_t> writers;
  for (const auto& r : records(raw("syscall.events.jsonl.zst"))) {
    if (r.value("thread_role", "") == "bridge_writer") writers.insert(r["tid"].get<std::int64_t>());
  }
  ASSERT_FALSE(writers.empty()) << "the compiled tracer tells the writer thread apart";
  const auto names = thread_names();
  for (const auto tid : writers) {
    ASSERT_TRUE(names.contains(tid));
    EXPECT_EQ(names.at(tid), "jbench-writer (observer)");
  }
  for (const auto& [tid, name] : names) {
    if (!writers.contains(tid)) {
      EXPECT_NE(name, "jbench-writer (observer)");
    }
  }
}

TEST_F(ExportRealBundle, max_events_cuts_in_time_order_says_so_and_still_pairs_every_slice) {
  const std::string out = dir_->path() + "/cut.json";
  const auto r = run_jbench(
      {"export", bundle_, "--format", "chrome-json", "--max-events", "300", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("cut at --max-events 300"), std::string::npos) << r.err;
  const json cut_trace = json::parse(slurp(out));
  const auto& cut = cut_trace["otherData"]["cut"];
  ASSERT_TRUE(cut.is_object()) << cut_trace["otherData"].dump();
  EXPECT_GT(cut["events_left_out"].get<std::uint64_t>(), 0u);
  EXPECT_GT(cut["left_out_by_kind"]["syscall"].get<std::uint64_t>(), 0u);
  std::size_t events = 0;
  std::size_t closed_at_cut = 0;
  const std::uint64_t cut_ns = text_ns(cut["at_ts"]);
  for (const auto& e : cut_trace["traceEvents"]) {
    if (e["ph"] == "M") continue;
    ++events;
    if (e["ph"] == "E" && e.contains("args"))
      closed_at_cut += e["args"]["end"] == "cut by --max-events: closed at the cut";
    EXPECT_LE(std::llround(e["ts"].get<double>() * 1000), static_cast<long long>(cut_ns))
        << e.dump();
  }
  // A span counts as two events where it begins (its end is always written, at the cut if need
  // be), so when the one event left at the cut is a span's begin the cap leaves one slot free.
  EXPECT_LE(events, 300u);
  EXPECT_GE(events, 299u);
  EXPECT_EQ(cut["events_left_out"].get<std::size_t>() + events,
            (*trace_)["otherData"]["events_written"].get<std::size_t>());
  EXPECT_EQ(closed_at_cut, cut["slices_closed_at_cut"].get<std::size_t>());
  EXPECT_EQ(unpaired_slices(cut_trace), "");
  // Written atomically: nothing but the file itself is left beside it.
  std::size_t beside = 0;
  for (const auto& e : fs::directory_iterator(dir_->path())) {
    beside += e.path().filename().string().find(".tmp-") != std::string::npos;
  }
  EXPECT_EQ(beside, 0u);
}

TEST_F(ExportRealBundle, folded_self_times_add_up_to_the_root_spans_of_each_thread) {
  const auto r = run_jbench({"export", bundle_, "--format", "folded"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> bad;
  const auto lines = folded_lines(r.out, bad);
  EXPECT_TRUE(bad.empty()) << bad.front();
  ASSERT_FALSE(lines.empty());
  std::map<std::string, std::uint64_t> self_by_thread;  // "run;worker N pid P;tid T"
  for (const auto& [stack, ns] : lines) self_by_thread[thread_of(stack)] += ns;
  std::map<std::string, std::uint64_t> roots_by_thread;
  const json run = json::parse(slurp(bundle_ + "/runs/" + full_run_ + "/run.json"));
  for (const auto& m : run["cohort"]["members"]) {
    const int worker = m["worker"];
    std::map<std::string, std::pair<std::uint64_t, std::int64_t>> roots;  // id -> begin, tid
    std::map<std::string, std::uint64_t> ends;
    for (const auto& rec :
         records(raw("bridge/worker-" + std::to_string(worker) + ".events.jsonl.zst"))) {
      const std::uint64_t t = std::stoull(rec["t_ns"].get<std::string>());
      if (rec["type"] == "span_begin" && rec["parent_id"].is_null()) {
        roots[rec["span_id"]] = {t, rec["tid"].get<std::int64_t>()};
      } else if (rec["type"] == "span_end") {
        ends[rec["span_id"]] = t;
      }
    }
    for (const auto& [id, begin] : roots) {
      ASSERT_TRUE(ends.contains(id));
      const std::string thread = full_run_ + ";worker " + std::to_string(worker) + " pid " +
                                 std::to_string(m["pid"].get<int>()) + ";tid " +
                                 std::to_string(begin.second);
      roots_by_thread[thread] += ends[id] - begin.first;
    }
  }
  EXPECT_EQ(self_by_thread, roots_by_thread);
  // Sorted, for reproducible output.
  std::vector<std::string> in_order;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) in_order.push_back(line);
  EXPECT_TRUE(std::is_sorted(in_order.begin(), in_order.end()));
}

// Every on-CPU sample of the full run is counted once, under its own thread and phase; a sample
// taken while one of the thread's spans was open has that span as its first frame after the
// phase, and only then.
TEST_F(ExportRealBundle, folded_on_cpu_counts_every_sample_once_under_its_thread_and_span) {
  const auto r = run_jbench({"export", bundle_, "--format", "folded-on-cpu"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> bad;
  const auto lines = folded_lines(r.out, bad);
  EXPECT_TRUE(bad.empty()) << bad.front();
  const json run = json::parse(slurp(bundle_ + "/runs/" + full_run_ + "/run.json"));
  std::map<std::int64_t, std::string> thread_name;  // tid -> "run;worker N pid P;tid T"
  std::map<std::int64_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> roots;  // by tid
  std::set<std::string> root_names;
  for (const auto& m : run["cohort"]["members"]) {
    const int worker = m["worker"];
    std::map<std::string, std::pair<std::uint64_t, std::int64_t>> begun;  // id -> begin, tid
    for (const auto& rec :
         records(raw("bridge/worker-" + std::to_string(worker) + ".events.jsonl.zst"))) {
      const std::uint64_t t = std::stoull(rec["t_ns"].get<std::string>());
      const std::int64_t tid = rec["tid"];
      thread_name[tid] = full_run_ + ";worker " + std::to_string(worker) + " pid " +
                         std::to_string(m["pid"].get<int>()) + ";tid " + std::to_string(tid);
      if (rec["type"] == "span_begin" && rec["parent_id"].is_null()) {
        begun[rec["span_id"]] = {t, tid};
        root_names.insert(rec["name"].get<std::string>());
      } else if (rec["type"] == "span_end" && begun.contains(rec["span_id"])) {
        const auto [b, at] = begun[rec["span_id"]];
        roots[at].emplace_back(b, t);
      }
    }
  }
  std::map<std::string, std::uint64_t> samples, in_span;  // by thread
  for (const auto& rec : records(raw("syscall.events.jsonl.zst"))) {
    if (rec["type"] != "cpu_sample" || !thread_name.contains(rec["tid"])) continue;
    const std::uint64_t t = std::stoull(rec["t_ns"].get<std::string>());
    const std::string& thread = thread_name[rec["tid"]];
    ++samples[thread];
    // A caller is a frame of a mapped file or the walk's end, never a bare address (data the
    // frame-pointer walk read past a function without one).
    const std::string stack = rec.value("stack", "");
    const std::string callers = stack.substr(0, stack.rfind(';') + 1);
    EXPECT_FALSE(std::regex_search(callers, std::regex("(^|;)0x[0-9a-f]+;"))) << stack;
    for (const auto& [b, e] : roots[rec["tid"]]) in_span[thread] += b <= t && t < e ? 1 : 0;
  }
  ASSERT_FALSE(samples.empty()) << "no cpu_sample record of a worker thread in " << full_run_;
  std::map<std::string, std::uint64_t> counted, counted_in_span;
  for (const auto& [stack, n] : lines) {
    const std::string thread = thread_of(stack);
    if (!samples.contains(thread)) continue;  // a thread no bridge record names
    counted[thread] += n;
    const std::string after_phase = stack.substr(stack.find(';', thread.size() + 1) + 1);
    if (root_names.contains(after_phase.substr(0, after_phase.find(';')))) {
      counted_in_span[thread] += n;
    }
  }
  EXPECT_EQ(counted, samples);
  std::erase_if(in_span, [](const auto& thread_count) { return thread_count.second == 0; });
  EXPECT_EQ(counted_in_span, in_span);
  EXPECT_FALSE(in_span.empty()) << "no sample inside a span: nothing above was tested";
}

// Time off the CPU: every off-CPU interval and every traced call that slept, once, each line
// ending with why and by whom it was woken (a runnable wait needs no waker).
TEST_F(ExportRealBundle, folded_off_cpu_holds_every_wait_and_call_that_slept_with_its_waker) {
  const auto r = run_jbench({"export", bundle_, "--format", "folded-off-cpu", "--run", full_run_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> bad;
  const auto lines = folded_lines(r.out, bad);
  EXPECT_TRUE(bad.empty()) << bad.front();
  std::uint64_t expected = 0;
  for (const auto& rec : records(raw("syscall.events.jsonl.zst"))) {
    if (rec["type"] != "syscall") continue;
    const std::string call = rec["syscall"];
    if (call.starts_with("off-cpu:") || rec.contains("woken_by")) {
      expected += std::stoull(rec["duration_ns"].get<std::string>());
    }
  }
  std::uint64_t total = 0, fsyncs = 0;
  for (const auto& [stack, ns] : lines) {
    total += ns;
    const std::string last = stack.substr(stack.rfind(';') + 1);
    EXPECT_TRUE(last.starts_with("woken by ") || last == "runnable (waiting for a CPU)" ||
                (last == "waker not seen" && stack.find(";blocked ") != std::string::npos))
        << stack;
    if (stack.find(";fdatasync on db.sqlite") != std::string::npos) fsyncs += ns;
  }
  EXPECT_EQ(total, expected);
  EXPECT_GT(fsyncs, 0u) << "the writers' fdatasync calls sleep on the disk: " << r.out;
}

// A run without samples has nothing to fold: said, with exit 2, and no empty file.
TEST_F(ExportRealBundle, a_folded_export_with_nothing_to_fold_says_so) {
  std::string baseline = full_run_;
  baseline.replace(baseline.find(".full."), 6, ".baseline.");
  for (const std::string format : {"folded-on-cpu", "folded-off-cpu"}) {
    const std::string out = dir_->path() + "/empty." + format;
    const auto r =
        run_jbench({"export", bundle_, "--format", format, "--run", baseline, "--out", out});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("nothing to export: no "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(baseline), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
}

// A file export is written in one pass, naming each track where it first appears; stdout's in
// two, names first (docs/export.md). The events, their order and the names are the same.
TEST_F(ExportRealBundle, a_file_export_writes_what_the_stdout_export_does_names_placed_apart) {
  const std::string out = dir_->path() + "/one-pass.json";
  const auto r = run_jbench({"export", bundle_, "--format", "chrome-json", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json file = json::parse(slurp(out));
  const auto split = [](const json& trace, std::vector<std::string>& events,
                        std::multiset<std::string>& names) {
    for (const auto& e : trace["traceEvents"]) {
      if (e["ph"] == "M") {
        names.insert(e.dump());
      } else {
        events.push_back(e.dump());
      }
    }
  };
  std::vector<std::string> file_events, stdout_events;
  std::multiset<std::string> file_names, stdout_names;
  split(file, file_events, file_names);
  split(*trace_, stdout_events, stdout_names);
  EXPECT_EQ(file_events, stdout_events);
  EXPECT_EQ(file_names, stdout_names);
  EXPECT_EQ(file["otherData"], (*trace_)["otherData"]);
  EXPECT_EQ(unpaired_slices(file), "");
}

TEST_F(ExportRealBundle, an_unknown_run_is_bad_usage_naming_the_runs_there_are) {
  const auto r = run_jbench({"export", bundle_, "--format", "chrome-json", "--run", "nope.r9"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no run 'nope.r9'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(full_run_), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST_F(ExportRealBundle, one_run_is_exported_with_run_even_a_baseline_one) {
  std::string baseline = full_run_;
  baseline.replace(baseline.find(".full."), 6, ".baseline.");
  const auto r = run_jbench({"export", bundle_, "--format", "chrome-json", "--run", baseline});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json t = json::parse(r.out);
  ASSERT_EQ(t["otherData"]["runs"].size(), 1u);
  EXPECT_EQ(t["otherData"]["runs"][0]["id"], baseline);
  for (const auto& e : t["traceEvents"]) EXPECT_EQ(e["ph"], "i") << e.dump();  // boundaries only
}

// The text view: every raw file the full run's collectors name, line for line as kept (the
// compressed ones read as the text they hold), each starting with its own header.
TEST_F(ExportRealBundle, jsonl_gives_back_every_raw_line_of_the_run_as_written) {
  const auto r = run_jbench({"export", bundle_, "--format", "jsonl", "--run", full_run_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream run_file(bundle_ + "/runs/" + full_run_ + "/run.json");
  const json run = json::parse(run_file);
  std::vector<std::string> expected;
  std::size_t compressed = 0;
  for (const auto& c : run["trace_mode"]["collectors"]) {
    if (!c.contains("raw")) continue;
    for (const auto& f : c["raw"].is_string() ? json::array({c["raw"]}) : c["raw"]) {
      const std::string file = bundle_ + "/runs/" + full_run_ + "/" + f.get<std::string>();
      if (file.ends_with(".zst")) ++compressed;
      const auto lines = raw_lines(file);
      ASSERT_FALSE(lines.empty()) << file;
      EXPECT_EQ(json::parse(lines.front())["kind"], "header") << file;
      expected.insert(expected.end(), lines.begin(), lines.end());
    }
  }
  EXPECT_GT(compressed, 0u) << "the full run keeps some raw files compressed";
  std::vector<std::string> got;
  std::istringstream text(r.out);
  for (std::string line; std::getline(text, line);) got.push_back(line);
  EXPECT_EQ(got, expected);
  const auto unknown = run_jbench({"export", bundle_, "--format", "jsonl", "--run", "nope.r9"});
  EXPECT_EQ(unknown.exit_code, 2);
}

// The previous version kept every raw file as plain text. A bundle in that form (this one's
// compressed files written back as the text they hold, the sums rewritten) still validates, and
// reads as the same evidence: the same report, the same export.
TEST_F(ExportRealBundle, a_bundle_of_plain_raw_files_as_the_previous_version_kept_reads_alike) {
  const std::string plain = dir_->path() + "/plain/b";  // named as the original: reports name it
  fs::create_directories(plain);
  fs::copy(bundle_, plain, fs::copy_options::recursive);
  ASSERT_GT(write_back_as_plain_text(plain), 0u);
  rewrite_sums(plain);
  const auto valid = run_jbench({"validate", plain});
  EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;
  const auto report_kept = run_jbench({"report", bundle_});
  const auto report_plain = run_jbench({"report", plain});
  ASSERT_EQ(report_plain.exit_code, 0) << report_plain.err;
  EXPECT_EQ(report_plain.out, report_kept.out);
  const auto export_plain = run_jbench({"export", plain, "--format", "chrome-json"});
  ASSERT_EQ(export_plain.exit_code, 0) << export_plain.err;
  EXPECT_EQ(json::parse(export_plain.out)["traceEvents"], (*trace_)["traceEvents"]);
}

// An edited manifest whose figure has another type: the bundle is invalid (its checksums say so)
// and unreadable (the model names the figure). Refused as invalid, exit 1; allowed, the reading
// fails by file and pointer, exit 2 — never a figure read as 0.
TEST_F(ExportRealBundle, an_edited_unreadable_bundle_is_refused_as_invalid_then_named) {
  const std::string copy = dir_->path() + "/edited";
  fs::copy(bundle_, copy, fs::copy_options::recursive);
  json manifest = json::parse(slurp(copy + "/manifest.json"));
  manifest["runs"][1]["block"] = "x";
  std::ofstream(copy + "/manifest.json") << manifest.dump();
  const std::vector<std::vector<std::string>> commands = {{"export", copy, "--format", "folded"},
                                                          {"report", copy}};
  for (const auto& command : commands) {
    SCOPED_TRACE(command[0]);
    const auto refused = run_jbench(command);
    EXPECT_EQ(refused.exit_code, 1) << refused.err;
    EXPECT_NE(refused.err.find("--allow-invalid"), std::string::npos) << refused.err;
    auto allowing = command;
    allowing.push_back("--allow-invalid");
    const auto allowed = run_jbench(allowing);
    EXPECT_EQ(allowed.exit_code, 2) << allowed.err;
    EXPECT_NE(allowed.err.find("manifest.json /runs/1/block: expected a non-negative integer, "
                               "found \"x\""),
              std::string::npos)
        << allowed.err;
  }
}

TEST_F(ExportRealBundle, an_invalid_bundle_is_refused_with_1_unless_allow_invalid) {
  const std::string copy = dir_->path() + "/b.invalid";
  fs::copy(bundle_, copy, fs::copy_options::recursive);
  const auto refused = run_jbench({"export", copy, "--format", "folded"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("--allow-invalid"), std::string::npos) << refused.err;
  EXPECT_TRUE(refused.out.empty());
  const auto allowed = run_jbench({"export", copy, "--format", "chrome-json", "--allow-invalid"});
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_NE(allowed.err.find("invalid"), std::string::npos);
  const json t = json::parse(allowed.out);
  EXPECT_EQ(t["otherData"]["bundle_valid"], false);
  EXPECT_TRUE(t["otherData"]["bundle_invalid"].is_string());
}

}  // namespace
}  // namespace jbench::test
