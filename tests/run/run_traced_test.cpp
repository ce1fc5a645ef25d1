// `jbench run` in the traced modes: every collector the mode asks for runs, proves it attached
// and leaves raw files the validator recomputes; `jbench report` pairs each mode with its
// baseline.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "bundle_sums.h"
#include "jbench/events/compressed_file.h"
#include "raw_lines.h"
#include "run_support.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class RunTraced : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    tag_ = unique_tag();
    RunInvocation inv;
    inv.matrix = "traced.yaml";
    inv.traced = true;
    result_ = new ProcessResult(run_jbench_run(*dir_, inv, tag_));
    bundle_ = dir_->path() + "/out/b";
  }
  static void TearDownTestSuite() {
    delete result_;
    delete dir_;
  }
  static std::map<std::string, json> collectors_of(const json& run) {
    std::map<std::string, json> out;
    for (const auto& c : run["trace_mode"]["collectors"]) out[c["name"]] = c;
    return out;
  }
  static TempDir* dir_;
  static ProcessResult* result_;
  static std::string bundle_;
  static std::string tag_;
};
TempDir* RunTraced::dir_ = nullptr;
ProcessResult* RunTraced::result_ = nullptr;
std::string RunTraced::bundle_;
std::string RunTraced::tag_;

TEST_F(RunTraced, every_mode_leaves_a_valid_bundle_and_nothing_running) {
  ASSERT_FALSE(result_->timed_out);
  EXPECT_EQ(result_->exit_code, 0) << result_->err;
  ASSERT_TRUE(fs::is_directory(bundle_)) << result_->err;
  const auto again = run_process({JBENCH_BINARY, "validate", bundle_});
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_TRUE(processes_tagged(tag_).empty());
}

TEST_F(RunTraced, every_collector_has_exactly_the_status_the_mode_and_target_call_for) {
  const auto manifest = read_json(bundle_ + "/manifest.json");
  std::size_t full_runs = 0;
  for (const auto& entry : manifest["runs"]) {
    const auto run = read_json(bundle_ + "/runs/" + entry["id"].get<std::string>() + "/run.json");
    auto c = collectors_of(run);
    ASSERT_EQ(c["cpu"]["status"], "ok") << c["cpu"];
    EXPECT_EQ(run["trace_mode"]["bridge_mode"],
              entry["trace"] == "baseline" ? "off" : entry["trace"]);
    if (entry["trace"] == "baseline" || entry["trace"] == "no-consumer") {
      for (const char* name : {"bridge", "spans", "gc", "alloc", "syscall"}) {
        EXPECT_EQ(c[name]["status"], "not_requested") << name;
        EXPECT_FALSE(c[name]["reason"].get<std::string>().empty()) << name;
      }
      continue;
    }
    if (entry["trace"] == "full") ++full_runs;
    EXPECT_EQ(c["syscall"]["status"], "ok") << c["syscall"].dump();
    EXPECT_EQ(c["syscall"]["setting"], entry["trace"]);
    for (const char* name : {"bridge", "spans", "alloc"}) {
      EXPECT_EQ(c[name]["status"], "ok") << name << ": " << c[name].dump();
      EXPECT_EQ(c[name]["lifecycle"]["attach_verified"], true) << name;
      EXPECT_EQ(c[name]["lifecycle"]["canaries_seen"], json::array({0})) << name;
    }
    // The SQLite worker has no garbage collector: not available, with the reason, not required.
    EXPECT_EQ(c["gc"]["status"], "not_available");
    EXPECT_NE(c["gc"]["reason"].get<std::string>().find("no GC"), std::string::npos);
    for (const auto& r : run["trace_mode"]["requires"]) EXPECT_NE(r, "gc");
  }
  EXPECT_EQ(full_runs, 2u);
}

TEST_F(RunTraced, spans_and_allocations_are_summarised_per_incarnation_and_phase) {
  const auto manifest = read_json(bundle_ + "/manifest.json");
  for (const auto& entry : manifest["runs"]) {
    if (entry["trace"] != "full") continue;
    const std::string dir = bundle_ + "/runs/" + entry["id"].get<std::string>();
    const auto summary = read_json(dir + "/summary.json");
    std::map<std::string, std::uint64_t> spans;
    for (const auto& s : summary["collectors"]["spans"]["by_name"]) {
      spans[s["name"]] = s["count"];
      EXPECT_LE(std::stoull(s["self_ns"].get<std::string>()),
                std::stoull(s["total_ns"].get<std::string>()));
    }
    EXPECT_EQ(spans["connection_open:startup"], 1u);
    EXPECT_GT(spans["transaction:write"], 0u);
    std::set<std::string> phases;
    for (const auto& cell : summary["collectors"]["alloc"]["cells"]) phases.insert(cell["phase"]);
    EXPECT_TRUE(phases.count("measure")) << summary["collectors"]["alloc"].dump();
  }
}

// The compiled tracer tells the trace bridge's writer thread (the observer's own) apart: its
// calls are summarised beside the workload's, never inside them.
TEST_F(RunTraced, the_bridge_writer_threads_calls_are_kept_apart_from_the_workloads) {
  const auto manifest = read_json(bundle_ + "/manifest.json");
  int checked = 0;
  for (const auto& entry : manifest["runs"]) {
    if (entry["trace"] != "light" && entry["trace"] != "full") continue;
    const std::string dir = bundle_ + "/runs/" + entry["id"].get<std::string>();
    const auto collectors = collectors_of(read_json(dir + "/run.json"));
    if (collectors.at("syscall").value("backend", "") != "libbpf") continue;
    const auto syscall = read_json(dir + "/summary.json")["collectors"]["syscall"];
    EXPECT_EQ(syscall["thread_roles"], "told_apart");
    for (const auto& inc : syscall["incarnations"]) {
      if (inc["worker_index"].is_null()) continue;
      ++checked;
      // The writer writes the bridge's events file; the workload's own calls stay in phases.
      std::uint64_t writer_writes = 0;
      const json writer = inc.value("bridge_writer_phases", json::object());
      for (const auto& [phase, calls] : writer.items()) {
        for (const auto& [call, cell] : calls.items()) {
          // Its other calls (the futex it waits for work in, its clock reads) are counted too.
          if (call == "syscall:other") continue;
          EXPECT_TRUE(call == "write" || call == "pwrite64" || call == "writev" ||
                      call == "openat" || call == "fsync" || call == "fdatasync")
              << "the bridge writer made a " << call;
          if (call == "write") writer_writes += cell["count"].get<std::uint64_t>();
        }
      }
      EXPECT_GT(writer_writes, 0u) << inc.dump();
      EXPECT_TRUE(inc["phases"].contains("measure")) << inc.dump();
    }
  }
  EXPECT_GT(checked, 0) << "no light or full run was traced by the compiled tracer";
}

TEST_F(RunTraced, the_report_pairs_each_mode_with_its_baseline) {
  const auto r = run_process({JBENCH_BINARY, "report", bundle_, "--overhead-only", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = json::parse(r.out);
  // The whole report carries the same table as its `overhead` member.
  const auto whole = run_process({JBENCH_BINARY, "report", bundle_, "--json"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_EQ(json::parse(whole.out)["overhead"]["rows"], report["rows"]);
  ASSERT_EQ(report["rows"].size(), 3u) << r.out;
  std::set<std::string> modes;
  for (const auto& row : report["rows"]) {
    modes.insert(row["mode"]);
    EXPECT_EQ(row["pairs"], 2);
    EXPECT_GT(row["median_ratio"].get<double>(), 0.0);
    EXPECT_LE(row["ci95_low"].get<double>(), row["median_ratio"].get<double>());
    EXPECT_GE(row["ci95_high"].get<double>(), row["median_ratio"].get<double>());
  }
  EXPECT_EQ(modes, (std::set<std::string>{"no-consumer", "light", "full"}));
  const auto text = run_process({JBENCH_BINARY, "report", bundle_});
  EXPECT_NE(text.out.find("95% interval"), std::string::npos);
  const auto missing = run_process({JBENCH_BINARY, "report", bundle_ + "/nowhere"});
  EXPECT_EQ(missing.exit_code, 2);
}

TEST_F(RunTraced, a_full_mode_bundle_whose_span_records_are_corrupted_fails_validation) {
  const std::string copy = dir_->path() + "/corrupted";
  fs::copy(bundle_, copy, fs::copy_options::recursive);
  const auto manifest = read_json(copy + "/manifest.json");
  std::string file;
  for (const auto& entry : manifest["runs"]) {
    if (entry["trace"] == "full") {
      file = copy + "/runs/" + entry["id"].get<std::string>() +
             "/raw/bridge/worker-0.events.jsonl.zst";
      break;
    }
  }
  ASSERT_TRUE(fs::exists(file));
  // Every span_end loses its span: the spans no longer pair.
  const std::vector<std::string> lines = raw_lines(file);
  fs::remove(file);
  events::CompressedFile out;
  ASSERT_TRUE(out.open(file).ok());
  for (const auto& line : lines) {
    if (line.find(R"("type":"span_end")") == std::string::npos) out.write(line + "\n");
  }
  ASSERT_TRUE(out.close().ok());
  // The checksums are made to agree, so only the events can give the lie away.
  ProcessOptions sums;
  sums.cwd = copy;
  const auto listed = run_process({"/bin/sh", "-c",
                                   "find . -type f ! -name SHA256SUMS | sort | sed 's|^\\./||' "
                                   "| xargs sha256sum > SHA256SUMS"},
                                  sums);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const auto r = run_process({JBENCH_BINARY, "validate", copy, "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("\"events."), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"sums."), std::string::npos) << r.out;
}

// The full runs' syscall records, as the run left them.
std::vector<std::string> full_run_dirs(const std::string& bundle) {
  std::vector<std::string> dirs;
  const json manifest = read_json(bundle + "/manifest.json");  // kept: the loop reads into it
  for (const auto& entry : manifest["runs"]) {
    if (entry["trace"] == "full")
      dirs.push_back(bundle + "/runs/" + entry["id"].get<std::string>());
  }
  return dirs;
}

// Each call is kept once, compressed: the compiled tracer's own records file is gone once
// translated whole, and 64 bytes cut from the middle of the kept file (the sums made to agree)
// are found.
TEST_F(RunTraced, a_full_runs_calls_are_kept_once_compressed_and_a_cut_in_them_is_found) {
  ASSERT_EQ(result_->exit_code, 0) << result_->out << result_->err;
  const auto dirs = full_run_dirs(bundle_);
  ASSERT_FALSE(dirs.empty());
  for (const auto& dir : dirs) {
    const auto syscall = collectors_of(read_json(dir + "/run.json")).at("syscall");
    ASSERT_EQ(syscall["status"], "ok") << syscall.dump();
    EXPECT_EQ(syscall["raw"], "raw/syscall.events.jsonl.zst");
    EXPECT_TRUE(fs::is_regular_file(dir + "/raw/syscall.events.jsonl.zst"));
    EXPECT_FALSE(fs::exists(dir + "/raw/syscall.events.jsonl"));
    if (syscall["backend"] == "libbpf") {
      EXPECT_FALSE(fs::exists(dir + "/raw/syscall.libbpf.records")) << dir;
      for (const auto& f : syscall["backend_raw"]) EXPECT_NE(f, "raw/syscall.libbpf.records");
    }
  }
  const std::string copy = dir_->path() + "/cut";
  fs::copy(bundle_, copy, fs::copy_options::recursive);
  const std::string file =
      copy + "/runs/" + fs::path(dirs[0]).filename().string() + "/raw/syscall.events.jsonl.zst";
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_GT(bytes.size(), 256u);
  const std::size_t middle = bytes.size() / 2;
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      << bytes.substr(0, middle) + bytes.substr(middle + 64);
  rewrite_sums(copy);
  const auto r = run_process({JBENCH_BINARY, "validate", copy, "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("\"events.unreadable\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"sums."), std::string::npos) << r.out;
}

// The compiled tracer's object, the same in every traced run, is kept once: in the provenance
// store, which each run's syscall entry names in place of a copy of its own.
TEST_F(RunTraced, the_compiled_tracers_object_is_kept_once_in_the_store) {
  ASSERT_EQ(result_->exit_code, 0) << result_->out << result_->err;
  const json index = read_json(bundle_ + "/provenance/index.json");
  std::set<std::string> objects;
  std::size_t libbpf_runs = 0;
  for (const auto& e : fs::directory_iterator(bundle_ + "/runs")) {
    const std::string dir = e.path().string();
    const auto collectors = collectors_of(read_json(dir + "/run.json"));
    if (!collectors.count("syscall") || collectors.at("syscall").value("backend", "") != "libbpf")
      continue;
    ++libbpf_runs;
    const json& syscall = collectors.at("syscall");
    EXPECT_FALSE(fs::exists(dir + "/raw/syscall.libbpf.bpf.o")) << dir;
    for (const auto& f : syscall["backend_raw"])
      EXPECT_FALSE(f.get<std::string>().ends_with(".bpf.o"));
    ASSERT_TRUE(syscall.contains("stored_once")) << syscall.dump();
    const std::string object = syscall["stored_once"].value("raw/syscall.libbpf.bpf.o", "");
    ASSERT_TRUE(object.starts_with("provenance/objects/")) << syscall.dump();
    EXPECT_TRUE(fs::is_regular_file(bundle_ + "/" + object)) << object;
    objects.insert(object);
    for (const auto& run : index["runs"]) {
      if (run["id"] != e.path().filename().string()) continue;
      EXPECT_EQ("provenance/objects/" + run["tracer"]["binary"]["sha256"].get<std::string>(),
                object);
    }
  }
  if (libbpf_runs == 0) GTEST_SKIP() << "no run traced with the compiled tracer on this host";
  EXPECT_EQ(objects.size(), 1u) << "one object for every run";
}

// A bundle of the form jbench wrote before the records were compressed (plain text, under the
// name it had) still validates and reports.
TEST_F(RunTraced, a_bundle_with_its_records_as_plain_text_still_validates_and_reports) {
  ASSERT_EQ(result_->exit_code, 0) << result_->out << result_->err;
  const std::string copy = dir_->path() + "/plain";
  fs::copy(bundle_, copy, fs::copy_options::recursive);
  // Every compressed raw file, the system calls of each full run among them.
  ASSERT_GE(write_back_as_plain_text(copy), full_run_dirs(copy).size());
  for (const auto& dir : full_run_dirs(copy)) {
    EXPECT_TRUE(fs::is_regular_file(dir + "/raw/syscall.events.jsonl")) << dir;
    EXPECT_FALSE(fs::exists(dir + "/raw/syscall.events.jsonl.zst")) << dir;
  }
  rewrite_sums(copy);
  const auto v = run_process({JBENCH_BINARY, "validate", copy});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  const auto plain = run_process({JBENCH_BINARY, "report", copy, "--json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const auto compressed = run_process({JBENCH_BINARY, "report", bundle_, "--json"});
  ASSERT_EQ(compressed.exit_code, 0) << compressed.err;
  // The same records give the same accounts, whichever form they are kept in.
  const json a = json::parse(plain.out), b = json::parse(compressed.out);
  EXPECT_EQ(a["cells"], b["cells"]);
  EXPECT_EQ(a["syscall_records"], b["syscall_records"]);
  EXPECT_GT(a["syscall_records"].get<std::uint64_t>(), 0u) << plain.out.substr(0, 2000);
}

}  // namespace
}  // namespace jbench::test

namespace jbench::test {
namespace {

TEST(RunTracedRefusal, a_target_without_the_bridges_probes_is_refused_before_anything_runs) {
  TempDir dir;
  const std::string workers = dir.path() + "/workers";
  std::filesystem::create_directories(workers);
  // An ELF executable that carries no probe of the contract.
  std::filesystem::copy_file("/bin/true", workers + "/jbench-sqlite-worker");
  RunInvocation inv;
  inv.matrix = "traced.yaml";
  inv.traced = true;
  inv.args = {"--worker-dir", workers};
  const auto r = run_jbench_run(dir, inv, unique_tag());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("carries no trace bridge"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("-DJBENCH_TRACING=ON"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/out/b"));
}

}  // namespace
}  // namespace jbench::test
