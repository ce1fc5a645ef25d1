// `jbench report` on real bundles: a writer with a planted fdatasync per transaction must have
// that call named as its dominant cost, in agreement with the workers' own timing of it; the
// same writer without the plant must have something else named. And the report fails closed:
// foreign records change nothing, collectors that did not deliver are said, invalid bundles are
// refused unless asked for, and then every line says so.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "folded_lines.h"
#include "jbench/events/compressed_file.h"
#include "jbench/schema/json_schema.h"
#include "raw_lines.h"
#include "run_support.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Bundle {
  std::string path;
  ProcessResult run;
};

// Writes a run's compressed records back with `extra` records after them; returns how many
// records it held before.
std::size_t append_records(const std::string& raw, const std::vector<std::string>& extra) {
  const std::vector<std::string> lines = raw_lines(raw);
  fs::remove(raw);
  events::CompressedFile out;
  EXPECT_TRUE(out.open(raw).ok());
  for (const auto& line : lines) out.write(line + "\n");
  for (const auto& line : extra) out.write(line + "\n");
  EXPECT_TRUE(out.close().ok());
  return lines.size();
}

class RunAttribution : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    tag_ = unique_tag();
    planted_ = new Bundle(make_bundle("planted"));
  }
  static void TearDownTestSuite() {
    delete planted_;
    delete dir_;
  }
  // Each test is its own process under ctest: the control bundle is made only by the tests
  // that read it.
  static Bundle make_bundle(const std::string& name) {
    RunInvocation inv;
    inv.matrix = "attribution-" + name + ".yaml";
    inv.name = name;
    inv.traced = true;
    auto r = run_jbench_run(*dir_, inv, tag_);
    return Bundle{dir_->path() + "/out/" + name, std::move(r)};
  }
  // The measure phase's lines of `jbench export BUNDLE --format FORMAT`: stack -> value.
  static std::map<std::string, std::uint64_t> folded_measure(const std::string& bundle,
                                                             const std::string& format) {
    const auto r = run_process({JBENCH_BINARY, "export", bundle, "--format", format});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> bad;
    auto lines = folded_lines(r.out, bad);
    EXPECT_TRUE(bad.empty()) << bad.front();
    std::erase_if(lines, [](const auto& line) {
      return line.first.find(";phase measure") == std::string::npos;
    });
    EXPECT_FALSE(lines.empty()) << r.out;
    return lines;
  }
  static std::string largest(const std::map<std::string, std::uint64_t>& values) {
    std::string top;
    std::uint64_t most = 0;
    for (const auto& [key, value] : values) {
      if (value > most) top = key, most = value;
    }
    return top;
  }
  static json report_json(const std::string& bundle, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{JBENCH_BINARY, "report", bundle, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_process(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
  }
  static const json* cell(const json& report, const std::string& mode) {
    for (const auto& c : report["cells"]) {
      if (c["mode"] == mode) return &c;
    }
    return nullptr;
  }
  static std::string copy_of(const std::string& bundle, const std::string& name) {
    const std::string copy = dir_->path() + "/" + name;
    fs::copy(bundle, copy, fs::copy_options::recursive);
    return copy;
  }
  // The directories of a bundle's runs of one trace mode.
  static std::vector<std::string> run_dirs(const std::string& bundle, const std::string& trace) {
    std::vector<std::string> out;
    const json manifest = read_json(bundle + "/manifest.json");
    for (const auto& e : manifest["runs"]) {
      if (e["trace"] == trace) out.push_back(bundle + "/runs/" + e["id"].get<std::string>());
    }
    return out;
  }
  // The workers' own measure windows of a run, summed.
  static double worker_windows_ns(const std::string& run_dir) {
    double ns = 0;
    const json run = read_json(run_dir + "/run.json");
    for (const auto& w : run["workers"]) {
      ns += std::stod(w["measure_end_ns"].get<std::string>()) -
            std::stod(w["measure_start_ns"].get<std::string>());
    }
    return ns;
  }
  static std::string first_run(const std::string& bundle, const std::string& trace) {
    const json manifest = read_json(bundle + "/manifest.json");
    for (const auto& e : manifest["runs"]) {
      if (e["trace"] == trace) return e["id"];
    }
    return "";
  }
  static TempDir* dir_;
  static std::string tag_;
  static Bundle* planted_;
};
TempDir* RunAttribution::dir_ = nullptr;
std::string RunAttribution::tag_;
Bundle* RunAttribution::planted_ = nullptr;

TEST_F(RunAttribution, the_planted_matrix_runs_to_a_valid_bundle_and_leaves_nothing_running) {
  ASSERT_FALSE(planted_->run.timed_out);
  EXPECT_EQ(planted_->run.exit_code, 0) << planted_->run.err;
  EXPECT_TRUE(processes_tagged(tag_).empty());
}

TEST_F(RunAttribution, the_planted_fdatasync_is_named_and_agrees_with_the_workers_own_timing) {
  const json report = report_json(planted_->path);
  const json* full = cell(report, "full");
  ASSERT_NE(full, nullptr) << report.dump(2);
  const json& top = (*full)["parts"][0];
  EXPECT_EQ(top["label"], "fdatasync on plant.log") << (*full)["parts"].dump(2);
  EXPECT_NE((*full)["sentence"].get<std::string>().find("fdatasync on plant.log"),
            std::string::npos);
  EXPECT_NE((*full)["sentence"].get<std::string>().find("full mode, whose own cost here is"),
            std::string::npos);
  // The independent measure: the workers timed every planted fdatasync themselves, over their
  // own measure windows, which full detail uses as the incarnation's measure phase.
  double planted_ns = 0;
  double planted_calls = 0;
  double window_ns = 0;
  for (const std::string& run : run_dirs(planted_->path, "full")) {
    const json result = read_json(run + "/raw/worker-0.result.json");
    ASSERT_TRUE(result.contains("plant")) << result.dump();
    planted_ns += std::stod(result["plant"]["fdatasync_ns"].get<std::string>());
    planted_calls += result["plant"]["calls"].get<double>();
    window_ns += worker_windows_ns(run);
  }
  ASSERT_GT(window_ns, 0);
  const double own_share = planted_ns / window_ns;
  // Within the interval, give or take what the worker's timing holds and the tracer's does not:
  // its two clock reads and the syscall entry and exit around each call, the tracer's own probes
  // included (well under 2 us a call), and the bootstrap's granularity.
  const double slack = 0.005 + planted_calls * 2000.0 / window_ns;
  EXPECT_GE(own_share, top["share_low"].get<double>() - slack) << top.dump();
  EXPECT_LE(own_share, top["share_high"].get<double>() + slack) << top.dump();
  // The timeline of one of those runs: every bin's shares within the bin, and its time in traced
  // calls at least what that run's worker timed of the planted ones alone.
  const json& timeline = (*full)["timeline"];
  ASSERT_TRUE(timeline.is_object()) << full->dump();
  ASSERT_EQ(timeline["incarnations"].size(), 1u);
  const json& strip = timeline["incarnations"][0];
  const std::size_t bins = timeline["bins"];
  double in_calls = 0;
  for (std::size_t i = 0; i < bins; ++i) {
    const double b = strip["blocked"][i], r = strip["runnable"][i], c = strip["in_calls"][i];
    EXPECT_LE(b + r + c, 1.0015) << "bin " << i;  // three shares rounded to 0.001 each
    in_calls += c / static_cast<double>(bins);
  }
  const std::string run_dir = planted_->path + "/runs/" + timeline["run"].get<std::string>();
  const json result = read_json(run_dir + "/raw/worker-0.result.json");
  const double run_planted = std::stod(result["plant"]["fdatasync_ns"].get<std::string>());
  EXPECT_GE(in_calls, run_planted / worker_windows_ns(run_dir) - slack) << strip.dump();
  // The parts of a cell's measure phase are the whole of it.
  double sum = 0;
  for (const auto& p : (*full)["parts"]) {
    EXPECT_GE(p["share"].get<double>(), 0.0);
    sum += p["share"].get<double>();
  }
  EXPECT_NEAR(sum, 1.0, 1e-9);
  // Spans: a child never has more than its parent; self time never exceeds total.
  for (const auto& s : (*full)["spans"]) {
    EXPECT_LE(s["self_share"].get<double>(), s["total_share"].get<double>() + 1e-12) << s.dump();
    EXPECT_LE(s["syscall_share"].get<double>() + s["gc_share"].get<double>(),
              s["total_share"].get<double>() + 1e-12)
        << s.dump();
  }
}

TEST_F(RunAttribution, full_detail_names_the_time_outside_the_calls_by_span) {
  const json report = report_json(planted_->path);
  const json* full = cell(report, "full");
  ASSERT_NE(full, nullptr) << report.dump(2);
  std::map<std::string, double> self_share;
  for (const auto& s : (*full)["spans"]) {
    const std::string plan = s["plan_class"];
    self_share[s["name"].get<std::string>() + (plan.empty() ? "" : ":" + plan)] =
        s["self_share"].get<double>();
  }
  // The compiled tracer follows the waits off the CPU outside the traced calls.
  bool off_cpu_traced = false;
  const json run =
      read_json(planted_->path + "/runs/" + first_run(planted_->path, "full") + "/run.json");
  for (const auto& c : run["trace_mode"]["collectors"]) {
    if (c["name"] == "syscall") off_cpu_traced = c["backend"] == "libbpf";
  }
  std::size_t span_parts = 0;
  double rest = -1;
  for (const auto& p : (*full)["parts"]) {
    if (p["kind"] == "rest") rest = p["share"].get<double>();
    if (p["kind"] != "span") continue;
    ++span_parts;
    // A span's part is the time it was innermost outside the calls: never more than its self time.
    ASSERT_TRUE(self_share.contains(p["span"])) << p.dump();
    EXPECT_LE(p["share"].get<double>(), self_share[p["span"]] + 1e-12) << p.dump();
  }
  EXPECT_GT(span_parts, 0u) << (*full)["parts"].dump(2);
  // The SQLite worker runs every statement in a span: with the off-CPU waits traced, what no part
  // names is the loop between its transactions.
  if (off_cpu_traced) {
    EXPECT_EQ((*full)["parts"].back()["label"],
              "rest: on a CPU outside every span and traced call");
    EXPECT_GE(rest, 0.0);
    EXPECT_LE(rest, 0.05) << (*full)["parts"].dump(2);
  }
}

// The worker is held before its exec until the collectors have it: its start-up table begins with
// the dynamic loader's work, before the worker's own code ran.
TEST_F(RunAttribution, the_startup_table_begins_at_exec_with_the_loaders_calls) {
  const json report = report_json(planted_->path);
  ASSERT_FALSE(report["startup"].empty()) << report.dump(2);
  for (const auto& table : report["startup"]) {
    bool traced_step = false;
    for (const auto& step : table["steps"]) {
      traced_step |= step["step"].get<std::string>().starts_with("exec, library loading");
    }
    EXPECT_TRUE(traced_step) << table["steps"].dump();
    std::size_t loader = 0;  // the first call that opens a shared library
    std::size_t own = 0;     // the first call of the bridge's own file
    for (std::size_t i = 0; i < table["calls"].size(); ++i) {
      const std::string path = table["calls"][i]["path"];
      if (loader == 0 && (path.find(".so") != std::string::npos)) loader = i + 1;
      if (own == 0 && path.find("raw/bridge/") != std::string::npos) own = i + 1;
    }
    EXPECT_GT(loader, 0u) << "no library opened in " << table["calls"].dump();
    EXPECT_GT(own, 0u) << table["calls"].dump();
    EXPECT_LT(loader, own) << "the libraries load before the bridge starts";
  }
}

// A worker that sleeps 300 µs after every statement: the report names the sleep as a blocked wait
// in clock_nanosleep, woken by a timer's interrupt, and its share (its interval over the runs)
// agrees with the worker's own timing of its sleeps: each traced wait lies inside the sleep the
// worker timed, which holds besides only the wake-up's wait for a CPU and the call's own entry
// and exit.
TEST_F(RunAttribution, a_planted_sleep_is_named_as_a_blocked_wait_within_the_workers_own_timing) {
  const Bundle sleep = make_bundle("sleep");
  ASSERT_EQ(sleep.run.exit_code, 0) << sleep.run.err;
  const json report = report_json(sleep.path);
  const json* full = cell(report, "full");
  ASSERT_NE(full, nullptr) << report.dump(2);
  const json* slept = nullptr;
  double runnable_high = 0;  // the wake-ups' waits for a CPU: the upper end of their interval
  for (const auto& p : (*full)["parts"]) {
    if (p["call"] == "off-cpu:blocked" && p["request"] == "clock_nanosleep") slept = &p;
    if (p["call"] == "off-cpu:runnable") runnable_high = p["share_high"].get<double>();
  }
  ASSERT_NE(slept, nullptr) << (*full)["parts"].dump(2);
  EXPECT_EQ((*full)["parts"][0]["label"], "blocked in clock_nanosleep (off the CPU)")
      << (*full)["parts"].dump(2);
  double slept_ns = 0;
  double sleeps = 0;
  double window_ns = 0;
  double runs = 0;
  for (const std::string& run : run_dirs(sleep.path, "full")) {
    const json result = read_json(run + "/raw/worker-0.result.json");
    ASSERT_TRUE(result.contains("plant_sleep")) << result.dump();
    slept_ns += std::stod(result["plant_sleep"]["slept_ns"].get<std::string>());
    sleeps += result["plant_sleep"]["calls"].get<double>();
    ++runs;
    window_ns += worker_windows_ns(run);
  }
  ASSERT_GT(window_ns, 0);
  // The worker's own timing, pooled over its runs, against the report's 95% interval over the
  // repetitions: the share is a statistic of the runs, and on a loaded host (CI runs the suite
  // at -j2 on 2 cores) the runs differ, so a point estimate is held to the pooled figure only
  // through its interval (one CI run: share 0.73 [0.67-0.87], the worker's own 0.89, its waits
  // for a CPU 0.08).
  const double own = slept_ns / window_ns;
  const double low = (*slept)["share_low"].get<double>();
  const double high = (*slept)["share_high"].get<double>();
  const auto figures = [&] {
    std::ostringstream o;
    o << slept->dump() << "\nthe worker's own sleeps: " << own << " of its windows (" << sleeps
      << " sleeps, " << window_ns << " ns)";
    return o.str();
  };
  // Inside the worker's timed sleeps: never more than they, give or take the clock reads.
  EXPECT_LE(low, own + 0.005) << figures();
  // And short of them by at most the wake-ups' waits for a CPU, the calls' own entry and exit
  // (well under 10 µs each), the sleep of a run's last operation, which the worker counts whole
  // and the account clips at the end of the window (under 1 ms), and the interrupts taken
  // between the worker's clock reads and the call, and the time the hypervisor took the vCPU
  // away there (steal), both of which the guest's scheduler books as on-CPU time: 0.1% of the
  // window on an oversubscribed host (the suite at -j3), 1.2% once in a fresh clone's CI on a
  // quiet VM, 2.1% beside two CPU hogs on 2 cores, so 3% is left for them.
  EXPECT_GE(high, own - runnable_high - 0.03 - sleeps * 10'000.0 / window_ns -
                      runs * 1'000'000.0 / window_ns)
      << figures() << "; waiting for a CPU: up to " << runnable_high;
  bool timer = false;
  for (const auto& w : (*full)["wait_for"]) {
    timer |= w["what"] == (*slept)["label"] &&
             w["woken_by"].get<std::string>().starts_with("an interrupt");
  }
  EXPECT_TRUE(timer) << (*full)["wait_for"].dump(2);
  // The off-CPU flame graph of the measure phase says the same: inside the statements, its widest
  // reason and waker is the planted sleep. (Outside them the worker waits for the harness's next
  // command once its operations are done: as long as the harness takes, on a loaded host too.)
  auto in_statements = folded_measure(sleep.path, "folded-off-cpu");
  std::erase_if(in_statements, [](const auto& line) {
    return line.first.find(";statement:") == std::string::npos;
  });
  const auto waits = folded_by_tail(in_statements, 2);
  EXPECT_EQ(largest(waits), "blocked in clock_nanosleep;woken by an interrupt");
  // The sleeps are system calls no tracer follows as calls, and still each is counted: the
  // summary's other calls hold exactly the worker's own count of them, and the report's table
  // names them with their time.
  double counted = 0;
  for (const std::string& run : run_dirs(sleep.path, "full")) {
    const json summary = read_json(run + "/raw/syscall.summary.json");
    const json result = read_json(run + "/raw/worker-0.result.json");
    ASSERT_EQ(summary["incarnations"].size(), 1u) << summary.dump();
    const json& measure = summary["incarnations"][0]["phases"]["measure"];
    ASSERT_TRUE(measure.contains("syscall:other")) << measure.dump();
    const json& made = measure["syscall:other"]["requests"]["clock_nanosleep"];
    EXPECT_EQ(made["count"], result["plant_sleep"]["calls"]) << measure.dump();
    counted += made["count"].get<double>();
  }
  const json* nanosleep = nullptr;
  for (const auto& r : (*full)["other_syscalls"]) {
    if (r["name"] == "clock_nanosleep") nanosleep = &r;
  }
  ASSERT_NE(nanosleep, nullptr) << (*full)["other_syscalls"].dump(2);
  const double ops =
      (*full)["operations_per_run"].get<double>() * (*full)["repetitions"].get<double>();
  EXPECT_NEAR((*nanosleep)["calls_per_op"].get<double>(), counted / ops, 1e-9);
  EXPECT_EQ((*full)["other_syscalls"][0]["name"], "clock_nanosleep")
      << "the planted sleeps are the longest of the other calls";
}

// A worker that busy-waits 1 ms in plant_busy_wait after every statement: the on-CPU samples
// name that function first, in the statements' spans, and the CPU time they stand for agrees with
// the worker's own thread-CPU clock over its waits, within the samples' counting error.
TEST_F(RunAttribution, on_cpu_samples_name_a_planted_busy_function_and_agree_with_its_cpu_clock) {
  const Bundle busy = make_bundle("busy");
  ASSERT_EQ(busy.run.exit_code, 0) << busy.run.err;
  const json report = report_json(busy.path);
  const json* full = cell(report, "full");
  ASSERT_NE(full, nullptr) << report.dump(2);
  const json& samples = (*full)["cpu_samples"];
  if (samples.is_null()) {
    // Only where this host refused the sampler: the run says why.
    const std::string run = busy.path + "/runs/" + first_run(busy.path, "full") + "/run.json";
    for (const auto& c : read_json(run)["trace_mode"]["collectors"]) {
      if (c["name"] == "syscall") {
        GTEST_SKIP() << "no on-CPU samples here: " << c.value("cpu_sampling", c.dump());
      }
    }
    FAIL() << "no cpu_samples and no syscall collector";
  }
  ASSERT_FALSE(samples["rows"].empty()) << samples.dump(2);
  EXPECT_NE(samples["rows"][0]["function"].get<std::string>().find("plant_busy_wait"),
            std::string::npos)
      << samples["rows"].dump(2);
  double sampled_ns_per_op = 0;
  for (const auto& r : samples["rows"]) {
    if (r["function"].get<std::string>().find("plant_busy_wait") == std::string::npos) continue;
    EXPECT_TRUE(r["span"].get<std::string>().starts_with("statement:")) << r.dump();
    sampled_ns_per_op += r["ns_per_op"].get<double>();
  }
  double cpu_ns = 0;
  for (const std::string& run : run_dirs(busy.path, "full")) {
    const json result = read_json(run + "/raw/worker-0.result.json");
    ASSERT_TRUE(result.contains("plant_delay")) << result.dump();
    cpu_ns += std::stod(result["plant_delay"]["cpu_ns"].get<std::string>());
  }
  const double ops =
      (*full)["operations_per_run"].get<double>() * (*full)["repetitions"].get<double>();
  ASSERT_GT(ops, 0);
  const double own_ns_per_op = cpu_ns / ops;
  // The samples counted in the function: n ~ Poisson; 4 standard errors of a count of n, plus
  // the clock's own code (the wait reads it once a microsecond), which the function's rows omit.
  const double n = sampled_ns_per_op * ops * samples["hz"].get<double>() / 1e9;
  ASSERT_GT(n, 50) << "too few samples to judge: " << samples.dump(2);
  const double bound = 4.0 / std::sqrt(n) + 0.10;
  EXPECT_NEAR(sampled_ns_per_op / own_ns_per_op, 1.0, bound)
      << "sampled " << sampled_ns_per_op << " ns/op, own clock " << own_ns_per_op << " ns/op";
  // The on-CPU flame graph of the measure phase says the same: its widest leaf is the planted
  // function, always under a statement's span.
  const auto stacks = folded_measure(busy.path, "folded-on-cpu");
  const auto leaves = folded_by_tail(stacks, 1);
  EXPECT_NE(largest(leaves).find("plant_busy_wait"), std::string::npos) << largest(leaves);
  for (const auto& [stack, count] : stacks) {
    if (stack.ends_with(largest(leaves))) {
      EXPECT_NE(stack.find(";statement:"), std::string::npos) << stack;
    }
  }
}

TEST_F(RunAttribution, the_json_report_follows_its_schema) {
  const auto schema = JsonSchema::builtin("attribution-report.schema.json");
  ASSERT_TRUE(schema) << schema.error().message;
  const json report = report_json(planted_->path);
  for (const auto& v : schema->validate(report)) ADD_FAILURE() << v.pointer << ": " << v.message;
  EXPECT_FALSE(report["startup"].empty());
  EXPECT_FALSE(report["startup"][0]["steps"].empty()) << report["startup"][0].dump(2);
}

// The overview: a row per cell and mode, read off that cell's account; the text report opens
// with it, and its CSV, parsed back, is the JSON's rows (the planted fdatasync the largest part).
TEST_F(RunAttribution, the_overview_comes_first_and_its_csv_reads_back_as_the_json) {
  const json report = report_json(planted_->path);
  const json& rows = report["overview"];
  ASSERT_EQ(rows.size(), report["cells"].size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const json& cell = report["cells"][i];
    EXPECT_EQ(rows[i]["cell"], cell["cell"]);
    EXPECT_EQ(rows[i]["mode"], cell["mode"]);
    EXPECT_EQ(rows[i]["cost_ratio"], cell["observer"]["median_ratio"]);
    for (const auto& part : cell["parts"]) {
      if (part["kind"] == "rest") {
        EXPECT_EQ(rows[i]["rest_share"], part["share"]);
      }
    }
    EXPECT_EQ(rows[i]["largest"], cell["parts"][0]["label"]);  // the largest is not the rest here
  }
  const json* full = cell(report, "full");
  ASSERT_NE(full, nullptr);
  EXPECT_NE(rows[1]["largest"].get<std::string>().find("plant.log"), std::string::npos)
      << rows[1].dump();

  const auto text = run_process({JBENCH_BINARY, "report", planted_->path});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const auto overview = text.out.find("\nOverview — per cell and traced mode");
  ASSERT_NE(overview, std::string::npos) << text.out.substr(0, 2000);
  EXPECT_LT(overview, text.out.find(" · light mode · "));

  const auto csv = run_process({JBENCH_BINARY, "report", planted_->path, "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  std::istringstream lines(csv.out);
  std::string header;
  std::getline(lines, header);
  std::vector<std::string> columns;
  for (std::istringstream h(header); std::getline(h, columns.emplace_back(), ',');) {
  }
  columns.pop_back();
  const auto column = [&columns](const std::string& name) {
    return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) -
                                    columns.begin());
  };
  ASSERT_LT(column("rest_high_pct"), columns.size()) << header;
  std::size_t n = 0;
  for (std::string line; std::getline(lines, line); ++n) {
    ASSERT_LT(n, rows.size());
    std::vector<std::string> f;  // no field of this bundle holds a comma or a quote
    for (std::istringstream l(line); std::getline(l, f.emplace_back(), ',');) {
    }
    f.pop_back();
    ASSERT_EQ(f.size(), columns.size()) << line;
    EXPECT_EQ(f[column("cell")], rows[n]["cell"]);
    EXPECT_EQ(f[column("mode")], rows[n]["mode"]);
    EXPECT_EQ(f[column("largest_part")], rows[n]["largest"]);
    EXPECT_EQ(f[column("workers")], "1");
    EXPECT_EQ(f[column("bundle_valid")], "yes");
    for (const auto& [csv_name, json_name, scale] :
         std::vector<std::tuple<std::string, std::string, double>>{
             {"largest_share_pct", "largest_share", 100},
             {"largest_share_low_pct", "largest_share_low", 100},
             {"largest_share_high_pct", "largest_share_high", 100},
             {"rest_pct", "rest_share", 100},
             {"rest_low_pct", "rest_share_low", 100},
             {"rest_high_pct", "rest_share_high", 100},
             {"cost_ratio", "cost_ratio", 1},
             {"cost_ratio_low", "cost_ratio_low", 1},
             {"cost_ratio_high", "cost_ratio_high", 1}}) {
      const json& expected = rows[n][json_name];
      ASSERT_TRUE(expected.is_number()) << json_name;  // 3 repetitions: every interval is there
      EXPECT_NEAR(std::stod(f[column(csv_name)]), expected.get<double>() * scale, 1e-4 * scale)
          << csv_name;
    }
  }
  EXPECT_EQ(n, rows.size());

  const auto md = run_process({JBENCH_BINARY, "report", planted_->path, "--format", "markdown"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.rfind("| cell | ", 0), 0u) << md.out;
  EXPECT_EQ(std::count(md.out.begin(), md.out.end(), '\n'), static_cast<long>(rows.size() + 2));
  // Two formats at once is bad usage.
  EXPECT_EQ(
      run_process({JBENCH_BINARY, "report", planted_->path, "--json", "--format", "csv"}).exit_code,
      2);
}

// `report --cells` reads back from the bundle the very table `jbench run` printed, line for line,
// and its CSV holds the same figures.
TEST_F(RunAttribution, the_cells_table_reads_back_from_the_bundle_as_the_run_printed_it) {
  const auto text = run_process({JBENCH_BINARY, "report", planted_->path, "--cells"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string printed = planted_->run.out + planted_->run.err;
  std::istringstream lines(text.out);
  std::size_t n = 0;
  for (std::string line; std::getline(lines, line); ++n) {
    EXPECT_NE(printed.find(line + "\n"), std::string::npos)
        << "not as the run printed it: " << line;
  }
  EXPECT_EQ(n, 4u);  // the header, then baseline, light, full
  EXPECT_NE(text.out.find(".baseline "), std::string::npos);
  EXPECT_LT(text.out.find(".baseline "), text.out.find(".light "));
  EXPECT_LT(text.out.find(".light "), text.out.find(".full "));

  const auto csv =
      run_process({JBENCH_BINARY, "report", planted_->path, "--cells", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("cell,ok_runs,runs,throughput_median_ops_per_s,", 0), 0u) << csv.out;
  EXPECT_NE(csv.out.find(".full,3,3,"), std::string::npos) << csv.out;
  EXPECT_EQ(run_process({JBENCH_BINARY, "report", planted_->path, "--cells", "--json"}).exit_code,
            2);
}

TEST_F(RunAttribution, every_incarnations_phases_split_into_parts_that_sum_to_their_time) {
  const json report = report_json(planted_->path);
  ASSERT_FALSE(report["incarnations"].empty());
  std::size_t phases = 0;
  for (const auto& inc : report["incarnations"]) {
    ASSERT_EQ(inc["phases"].size(), 4u) << inc.dump();
    for (const auto& p : inc["phases"]) {
      const auto ns = [&](const char* key) { return std::stoull(p[key].get<std::string>()); };
      // Exactly, in integer nanoseconds: each part is measured inside the phase's window.
      EXPECT_EQ(ns("syscall_ns") + ns("gc_ns") + ns("span_ns") + ns("rest_ns"),
                ns("wall_ns") * p["threads"].get<std::uint64_t>())
          << inc["run"] << " " << p.dump();
      EXPECT_GT(ns("wall_ns"), 0u) << inc["run"] << " " << p.dump();
      ++phases;
    }
  }
  EXPECT_EQ(phases % 4, 0u);
}

TEST_F(RunAttribution, without_the_plant_something_else_is_named) {
  const Bundle unplanted = make_bundle("unplanted");
  ASSERT_EQ(unplanted.run.exit_code, 0) << unplanted.run.err;
  EXPECT_TRUE(processes_tagged(tag_).empty());
  const json report = report_json(unplanted.path);
  const json* full = cell(report, "full");
  ASSERT_NE(full, nullptr);
  for (const auto& p : (*full)["parts"]) {
    EXPECT_EQ(p["label"].get<std::string>().find("plant.log"), std::string::npos) << p.dump();
  }
  ASSERT_FALSE((*full)["top"].is_null()) << full->dump(2);
  EXPECT_NE((*full)["top"]["label"], "fdatasync on plant.log");
}

TEST_F(RunAttribution, records_of_an_unregistered_process_change_nothing) {
  const json before = report_json(planted_->path);
  const std::string copy = copy_of(planted_->path, "foreign");
  const std::string run = first_run(copy, "full");
  // A same-name process's calls, as a collector that failed to filter would have written them,
  // added to the run's (compressed) records.
  std::vector<std::string> foreign;
  for (int i = 0; i < 500; ++i) {
    foreign.push_back(
        std::string(R"({"duration_ns":"50000000","fd":5,"kind":"record",)") +
        R"("path":"/tmp/plant.log","phase":"measure","pid":999999,"result":0,"seq":")" +
        std::to_string(i) +
        R"(","start_time_ticks":"1","syscall":"fdatasync","t_ns":"1","tid":999999,)" +
        R"("type":"syscall"})");
  }
  append_records(copy + "/runs/" + run + "/raw/syscall.events.jsonl.zst", foreign);
  const json after = report_json(copy, {"--allow-invalid"});
  EXPECT_EQ(after["cells"][0]["parts"], before["cells"][0]["parts"]);
}

TEST_F(RunAttribution, an_invalid_bundle_is_refused_unless_allowed_and_then_every_line_says_so) {
  const std::string copy = copy_of(planted_->path, "edited");
  std::ofstream(copy + "/runs/" + first_run(copy, "full") + "/logs/worker-0.stderr", std::ios::app)
      << "x";
  const auto refused = run_process({JBENCH_BINARY, "report", copy});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("invalid"), std::string::npos) << refused.err;
  EXPECT_TRUE(refused.out.empty());
  const auto allowed = run_process({JBENCH_BINARY, "report", copy, "--allow-invalid"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  std::istringstream lines(allowed.out);
  std::size_t n = 0;
  for (std::string line; std::getline(lines, line); ++n) {
    EXPECT_TRUE(line.starts_with("[INVALID BUNDLE] ")) << line;
  }
  EXPECT_GT(n, 5u);
  EXPECT_FALSE(report_json(copy, {"--allow-invalid"})["bundle_valid"].get<bool>());
  const auto missing = run_process({JBENCH_BINARY, "report", copy + "/nowhere"});
  EXPECT_EQ(missing.exit_code, 2);
}

// A run's files that cannot be read into its account are named, where the fault is, as one
// error (exit 2): a syscall record without its process, a worker's result of the wrong type.
TEST_F(RunAttribution, a_malformed_record_or_result_is_named_by_its_file_and_place) {
  const std::string copy = copy_of(planted_->path, "malformed");
  const std::string run = first_run(copy, "full");
  const std::size_t kept =
      append_records(copy + "/runs/" + run + "/raw/syscall.events.jsonl.zst",
                     {R"({"duration_ns":"5","kind":"record","syscall":"read","t_ns":"1","tid":1,)"
                      R"("type":"syscall"})"});
  const auto no_pid = run_process({JBENCH_BINARY, "report", copy, "--allow-invalid"});
  EXPECT_EQ(no_pid.exit_code, 2) << no_pid.err;
  const std::string where =
      "runs/" + run + "/raw/syscall.events.jsonl.zst:" + std::to_string(kept + 1) + ":1";
  EXPECT_NE(no_pid.err.find(where + ": a record without pid and start_time_ticks"),
            std::string::npos)
      << no_pid.err;

  const std::string mistyped = copy_of(planted_->path, "mistyped");
  const std::string result_path = mistyped + "/runs/" + run + "/raw/worker-0.result.json";
  json result = read_json(result_path);
  result["transactions"] = "many";
  std::ofstream(result_path) << result.dump();
  const auto wrong_type = run_process({JBENCH_BINARY, "report", mistyped, "--allow-invalid"});
  EXPECT_EQ(wrong_type.exit_code, 2) << wrong_type.err;
  EXPECT_NE(wrong_type.err.find("runs/" + run + "/raw/worker-0.result.json /transactions: "),
            std::string::npos)
      << wrong_type.err;
}

TEST_F(RunAttribution, collectors_that_did_not_deliver_are_named_never_a_partial_total) {
  // GC: the sqlite worker has no collector, so GC pauses are not attributed, and said so.
  const json report = report_json(planted_->path);
  bool gc_said = false;
  for (const auto& n : (*cell(report, "full"))["not_attributed"]) {
    gc_said |= n["collector"] == "gc" && n["status"] == "not_available" &&
               !n["reason"].get<std::string>().empty();
  }
  EXPECT_TRUE(gc_said) << cell(report, "full")->dump(2);
  // A syscall collector that failed: no dominant cost is named, and why is.
  const std::string copy = copy_of(planted_->path, "failed");
  const json manifest = read_json(copy + "/manifest.json");
  for (const auto& e : manifest["runs"]) {
    if (e["trace"] != "full") continue;
    const std::string path = copy + "/runs/" + e["id"].get<std::string>() + "/run.json";
    json run = read_json(path);
    for (auto& c : run["trace_mode"]["collectors"]) {
      if (c["name"] == "syscall") {
        c["status"] = "collector_failed";
        c["reason"] = "the test says it failed";
      }
    }
    std::ofstream(path) << run.dump();
  }
  const json failed = report_json(copy, {"--allow-invalid"});
  const json* full = cell(failed, "full");
  ASSERT_NE(full, nullptr);
  EXPECT_FALSE((*full)["syscalls_attributed"].get<bool>());
  EXPECT_TRUE((*full)["top"].is_null());
  const std::string sentence = (*full)["sentence"];
  EXPECT_NE(sentence.find("no dominant cost can be named"), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("collector_failed: the test says it failed"), std::string::npos)
      << sentence;
}

}  // namespace
}  // namespace jbench::test
