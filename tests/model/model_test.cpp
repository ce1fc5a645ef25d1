// jbench::bundle_model on real bundles: the checked-in valid bundle and the comparison fixtures,
// each written by a real session.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <tuple>

#include "jbench/model/bundle_reader.h"
#include "schema_walk.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

using model::BundleReader;
using nlohmann::json;
namespace fs = std::filesystem;

const std::string kValid = "tests/fixtures/bundles/valid";

std::vector<std::string> real_bundles() {
  std::vector<std::string> out = {kValid};
  for (const auto& e : fs::directory_iterator(source_path("tests/fixtures/compare/bundles"))) {
    out.push_back(fs::relative(e.path(), JBENCH_SOURCE_DIR).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

TEST(BundleModel, reads_the_valid_bundle_typed) {
  const BundleReader bundle(source_path(kValid));
  ASSERT_TRUE(bundle.manifest()) << bundle.manifest().error().message;
  const auto& runs = bundle.manifest()->runs;
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(bundle.manifest()->status, "complete");
  EXPECT_EQ(runs[0].id, "w1.persistent.writer.tiny.baseline.r1");
  EXPECT_EQ(runs[0].status, RunStatus::ok);
  EXPECT_EQ(runs[0].trace, TraceMode::baseline);
  EXPECT_EQ(runs[0].seed, "3480942068890166599");
  ASSERT_TRUE(runs[0].throughput_ops_per_s);
  EXPECT_GT(*runs[0].throughput_ops_per_s, 0.0);

  const auto plan = bundle.plan();
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(plan->runs[0].cell, "w1.persistent.writer.tiny.baseline");
  ASSERT_LT(plan->runs[0].block, plan->blocks.size());
  EXPECT_EQ(plan->blocks[plan->runs[0].block].point, "w1.persistent.writer.tiny");
  EXPECT_THAT(plan->cells[0].values,
              testing::Contains(std::pair<std::string, std::string>("workers", "1")));

  const auto run = bundle.run(runs[1].id);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run->id, runs[1].id);
  EXPECT_TRUE(bundle.judgement().get().valid)
      << testing::PrintToString(bundle.judgement().get().reasons);
  EXPECT_EQ(run->trace, TraceMode::baseline);
  EXPECT_EQ(run->boundaries.size(), model::kBoundaryNames.size());  // an ok run reached them all
  EXPECT_LT(*run->boundary("measure_start_ns"), *run->boundary("measure_end_ns"));
  ASSERT_EQ(run->cohort.size(), 1u);
  EXPECT_EQ(run->cohort[0].worker, 0u);
  EXPECT_GT(run->cohort[0].pid, 0);
  EXPECT_GT(run->cohort[0].start_time_ticks, 0u);
  ASSERT_NE(run->worker(0, run->cohort[0].pid), nullptr);
  EXPECT_LT(*run->worker(0, run->cohort[0].pid)->hello_t_ns,
            *run->worker(0, run->cohort[0].pid)->canary_t_ns);
  EXPECT_LT(*run->startup_step("spawned_ns"), *run->startup_step("canaries_verified_ns"));
  ASSERT_NE(run->collector("cpu"), nullptr);
  EXPECT_EQ(run->collector("cpu")->status, collectors::Status::ok);
  EXPECT_EQ(run->collector("cpu")->backend, "proc");
  EXPECT_EQ(run->collector("bridge")->status, collectors::Status::not_requested);

  const auto summary = bundle.summary(runs[1].id);
  ASSERT_TRUE(summary) << summary.error().message;
  EXPECT_EQ(summary->throughput_ops_per_s, runs[1].throughput_ops_per_s);  // the manifest's twin
  EXPECT_EQ(summary->workers, 1u);
  EXPECT_EQ(summary->starved, 0u);
  EXPECT_LE(*summary->p50_ns, *summary->p99_ns);
  EXPECT_EQ(summary->operations, 200.0);
  EXPECT_FALSE(summary->counted);  // a baseline run: nothing counted its instructions
}

// Every field the model reads is one the document's schema declares: the types and the schemas
// cannot drift apart unseen.
TEST(BundleModel, every_field_it_reads_is_declared_by_the_schemas) {
  const json manifest_schema = read_json(source_path("manifests/manifest.schema.json"));
  const json plan_schema = read_json(source_path("manifests/plan.schema.json"));
  const json run_schema = read_json(source_path("manifests/run.schema.json"));
  const json summary_schema = read_json(source_path("manifests/summary.schema.json"));
  for (const std::string& b : real_bundles()) {
    SCOPED_TRACE(b);
    const std::string dir = source_path(b);
    model::FieldLog manifest_log, plan_log, run_log, summary_log;
    const auto manifest =
        model::read_manifest(read_json(dir + "/manifest.json"), "manifest.json", &manifest_log);
    ASSERT_TRUE(manifest) << manifest.error().message;
    const auto planning = model::read_manifest_planning(read_json(dir + "/manifest.json"),
                                                        "manifest.json", &manifest_log);
    ASSERT_TRUE(planning) << planning.error().message;
    EXPECT_FALSE(planning->run_ids.empty());
    ASSERT_TRUE(model::read_plan(read_json(dir + "/plan.json"), "plan.json", &plan_log));
    for (const auto& r : manifest->runs) {
      const auto run =
          model::read_run_document(read_json(dir + "/runs/" + r.id + "/run.json"), r.id, &run_log);
      ASSERT_TRUE(run) << run.error().message;
      if (r.status != RunStatus::ok) continue;
      const auto summary = model::read_summary(read_json(dir + "/runs/" + r.id + "/summary.json"),
                                               r.id, &summary_log);
      ASSERT_TRUE(summary) << summary.error().message;
    }
    EXPECT_GT(run_log.size(), 20u);  // the reading went through cohort and collectors
    EXPECT_GT(summary_log.size(), 10u);
    for (const auto& p : manifest_log) EXPECT_TRUE(schema_declares(manifest_schema, p)) << p;
    for (const auto& p : plan_log) EXPECT_TRUE(schema_declares(plan_schema, p)) << p;
    for (const auto& p : run_log) EXPECT_TRUE(schema_declares(run_schema, p)) << p;
    for (const auto& p : summary_log) EXPECT_TRUE(schema_declares(summary_schema, p)) << p;
  }
}

// The summary's parts the fixtures lack (a counted run's totals, the bridge's counters, the
// workers' own counters), held to the schema on a document that has them all.
TEST(BundleModel, every_summary_field_it_reads_is_declared_even_those_the_fixtures_lack) {
  const json summary_schema = read_json(source_path("manifests/summary.schema.json"));
  const json doc = {
      {"measure", {{"operations", 100}, {"vm_steps", 900}, {"counters", {{"pages", 7}}}}},
      {"collectors",
       {{"instructions",
         {{"source", "callgrind"},
          {"measure_instructions", "123456"},
          {"measure_allocations", "300"},
          {"incarnations",
           {{{"phases", {{"measure", {{"instructions", "123456"}, {"allocations", "300"}}}}}}}}}},
        {"counters", {{"cells", {{{"phase", "measure"}, {"name", "pages"}, {"sum", 14}}}}}},
        {"syscall",
         {{"thread_roles", "told_apart"},
          {"incarnations",
           {{{"pid", 41},
             {"start_time_ticks", "900"},
             {"phases",
              {{"measure", {{"fsync", {{"count", 3}, {"total_ns", "70"}, {"max_ns", "40"}}}}},
               {"teardown",
                {{"syscall:other",
                  {{"count", 2},
                   {"errors", 1},
                   {"requests",
                    {{"openat", {{"count", 2}, {"errors", 1}, {"total_ns", "9"}}}}}}}}}}},
             {"bridge_writer_phases", {{"measure", {{"write", {{"count", 5}}}}}}}},
            {{"phases", {}}}}}}},
        {"cpu",
         {{"incarnations",
           {{{"pid", 41},
             {"start_time_ticks", "900"},
             {"phases", {{"startup", {{"on_cpu_ns", "600"}, {"runnable_ns", nullptr}}}}}}}}}},
        {"gc",
         {{"cells", {{{"phase", "measure"}, {"collections", 2}, {"pause_total_ns", "5000"}}}}}}}}};
  model::FieldLog log;
  const auto summary = model::read_summary(doc, "summary.json", &log);
  ASSERT_TRUE(summary) << summary.error().message;
  EXPECT_EQ(summary->counted->measure_instructions, 123456u);
  EXPECT_EQ(summary->counted->measure_allocations, 300u);
  ASSERT_EQ(summary->counter_cells.size(), 1u);
  EXPECT_EQ(summary->counter_cells[0].sum, 14.0);
  EXPECT_EQ(summary->own_counters, (std::vector<std::pair<std::string, double>>{{"pages", 7}}));
  ASSERT_TRUE(summary->syscall);
  EXPECT_EQ(summary->syscall->thread_roles, "told_apart");
  const auto& incarnations = summary->syscall->incarnations;
  ASSERT_EQ(incarnations.size(), 2u);  // an incarnation without a measure phase kept as such
  EXPECT_EQ(incarnations[0].pid, 41);
  EXPECT_EQ(incarnations[0].start_time_ticks, 900u);
  ASSERT_TRUE(incarnations[0].measure());
  ASSERT_EQ(incarnations[0].measure()->size(), 1u);
  const model::SyscallCall& fsync = incarnations[0].measure()->front();
  EXPECT_EQ(std::tie(fsync.name, fsync.count, fsync.total_ns, fsync.max_ns),
            std::make_tuple("fsync", 3u, 70u, 40u));
  EXPECT_FALSE(incarnations[0].phases[0]);  // no startup phase in the summary
  const model::SyscallCall& other = incarnations[0].phases[3]->front();
  ASSERT_EQ(other.requests.size(), 1u);
  EXPECT_EQ(other.requests[0].name, "openat");
  EXPECT_EQ(other.requests[0].errors, 1u);
  EXPECT_EQ(other.requests[0].total_ns, 9u);
  EXPECT_EQ(incarnations[0].bridge_writer_phases[model::kMeasurePhase]->front().count, 5u);
  EXPECT_FALSE(incarnations[1].measure());
  ASSERT_EQ(summary->cpu.size(), 1u);
  EXPECT_EQ(summary->cpu[0].phases[0]->on_cpu_ns, 600.0);
  EXPECT_FALSE(summary->cpu[0].phases[0]->runnable_ns);  // null: the reading could not be taken
  EXPECT_EQ(summary->counted->incarnations[0].measure()->allocations, 300.0);
  ASSERT_EQ(summary->gc_cells.size(), 1u);
  EXPECT_EQ(summary->gc_cells[0].pause_total_ns, 5000.0);  // a decimal string, read as a number
  EXPECT_TRUE(log.count("/collectors/counters/cells/*/sum"));
  EXPECT_TRUE(log.count("/collectors/syscall/incarnations/*/phases/measure/fsync/count"));
  EXPECT_TRUE(log.count(
      "/collectors/syscall/incarnations/*/phases/teardown/syscall:other/requests/openat/total_ns"));
  EXPECT_TRUE(log.count("/measure/counters/pages"));
  for (const auto& p : log) EXPECT_TRUE(schema_declares(summary_schema, p)) << p;
}

// A figure of the wrong type deep in a collector's summary is named, never read as zero.
TEST(BundleModel, a_wrong_collector_figure_is_named_by_its_pointer) {
  const json doc = {
      {"collectors",
       {{"syscall",
         {{"incarnations",
           {{{"phases",
              {{"measure", {{"ioctl", {{"requests", {{"FIONREAD", {{"count", "x"}}}}}}}}}}}}}}}}}}};
  const auto summary = model::read_summary(doc, "summary.json");
  ASSERT_FALSE(summary);
  EXPECT_EQ(
      summary.error().message,
      "summary.json /collectors/syscall/incarnations/0/phases/measure/ioctl/requests/FIONREAD/"
      "count: expected a non-negative integer, found \"x\"");
}

// A host's class as compare, history and merge hold bundles to it: each fact's text, a fact the
// host could not read as its {"unavailable": why} record, and a fact of another type named.
TEST(BundleModel, a_hosts_class_keeps_what_it_could_not_read) {
  const json manifest = {
      {"host",
       {{"cpu_model", {{"unavailable", "no 'model name' line in /proc/cpuinfo"}}},
        {"cpus_usable", 2},
        {"memory_total_mib", {{"unavailable", "no MemTotal line"}}},
        {"kernel", {{"release", "6.1"}, {"machine", "x86_64"}, {"sysname", "Linux"}}},
        {"hostname", "vm"}}}};
  const auto host = model::read_manifest_host(manifest, "manifest.json");
  ASSERT_TRUE(host) << host.error().message;
  EXPECT_EQ(host->host_class(),
            (std::map<std::string, std::string>{
                {"host.cpu_model", R"({"unavailable":"no 'model name' line in /proc/cpuinfo"})"},
                {"host.cpus_usable", "2"},
                {"host.kernel.machine", "x86_64"},
                {"host.kernel.release", "6.1"}}));
  EXPECT_FALSE(host->memory_total_mib);
  const auto wrong = model::read_manifest_host({{"host", {{"cpu_model", 5}}}}, "manifest.json");
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().message, "manifest.json /host/cpu_model: expected a string, found 5");
}

TEST(BundleModel, the_schema_walk_refuses_an_undeclared_member) {
  const json run_schema = read_json(source_path("manifests/run.schema.json"));
  EXPECT_TRUE(schema_declares(run_schema, "/cohort/members/*/start_time_ticks"));
  EXPECT_TRUE(schema_declares(run_schema, "/values/lane"));  // additionalProperties
  EXPECT_FALSE(schema_declares(run_schema, "/cohort/members/*/start_ticks"));
  EXPECT_FALSE(schema_declares(run_schema, "/boundaries/measure_middle_ns"));
}

// A document edited into a wrong shape: the error names the file and the JSON pointer.
struct WrongField {
  std::string document;  // manifest.json or the second run's run.json
  std::function<void(json&)> edit;
  std::string expected;  // the message's tail after the file's path
};

std::string error_after_edit(const WrongField& w, const TempDir& tmp) {
  fs::copy(source_path(kValid), tmp.path() + "/b", fs::copy_options::recursive);
  const BundleReader original(tmp.path() + "/b");
  const std::string run_id = original.manifest()->runs[1].id;
  const std::string path =
      tmp.path() + "/b/" +
      (w.document == "manifest.json" ? w.document : "runs/" + run_id + "/run.json");
  json doc = read_json(path);
  w.edit(doc);
  std::ofstream(path) << doc.dump();
  const BundleReader bundle(tmp.path() + "/b");
  if (!bundle.manifest()) return bundle.manifest().error().message.substr(path.size());
  const auto run = bundle.run(run_id);
  return run ? "(read without error)" : run.error().message.substr(path.size());
}

TEST(BundleModel, a_wrong_field_is_named_by_file_and_pointer) {
  const std::vector<WrongField> cases = {
      {"manifest.json", [](json& d) { d["runs"][1]["block"] = "x"; },
       " /runs/1/block: expected a non-negative integer, found \"x\""},
      {"manifest.json", [](json& d) { d["runs"][0]["trace"] = "fast"; },
       " /runs/0/trace: expected a known word, found \"fast\""},
      {"manifest.json", [](json& d) { d["runs"][0].erase("id"); },
       " /runs/0/id: expected a member, found nothing"},
      {"manifest.json", [](json& d) { d["runs"] = json::object(); },
       " /runs: expected a list, found {}"},
      {"run.json", [](json& d) { d["status"] = "okay"; },
       " /status: expected a known word, found \"okay\""},
      {"run.json", [](json& d) { d["cohort"]["members"][0]["start_time_ticks"] = 77; },
       " /cohort/members/0/start_time_ticks: expected a decimal string of a 64-bit value, "
       "found 77"},
      {"run.json", [](json& d) { d["boundaries"]["measure_end_ns"] = "-1"; },
       " /boundaries/measure_end_ns: expected a decimal string of a 64-bit value, found \"-1\""},
      {"run.json", [](json& d) { d["trace_mode"]["collectors"][0]["status"] = "fine"; },
       " /trace_mode/collectors/0/status: expected a known word, found \"fine\""},
      {"run.json", [](json& d) { d["values"]["workers"] = json::array(); },
       " /values: expected an object of strings, found "
       "{\"connection\":\"persistent\",\"dataset\":\"tiny\",\"lane\":\"mixed..."},
  };
  for (const auto& w : cases) {
    TempDir tmp;
    EXPECT_EQ(error_after_edit(w, tmp), w.expected) << w.document << w.expected;
  }
}

TEST(BundleModel, a_key_is_escaped_in_the_pointer_that_names_it) {
  EXPECT_EQ(model::pointer_token("a/b~c"), "/a~1b~0c");
  const json doc = {{"values", {{"x/y", 1}}}};
  model::Fields f(doc, "d.json");
  (void)f.object("values").text("x/y");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().message, "d.json /values/x~1y: expected a string, found 1");
}

TEST(BundleModel, a_missing_or_unparsable_manifest_is_an_input_error) {
  TempDir tmp;
  const BundleReader missing(tmp.path());
  ASSERT_FALSE(missing.manifest());
  EXPECT_EQ(missing.manifest().error().kind, ErrorKind::input);
  EXPECT_EQ(missing.manifest().error().message, "cannot read " + tmp.path() + "/manifest.json");
  EXPECT_FALSE(missing.judgement().get().valid);  // judged all the same: no verdict, no sums
  tmp.write("manifest.json", "{\"status\": ");
  const BundleReader broken(tmp.path());
  ASSERT_FALSE(broken.manifest());
  EXPECT_EQ(broken.manifest().error().message, tmp.path() + "/manifest.json is not a JSON object");
}

}  // namespace
}  // namespace jbench::test
