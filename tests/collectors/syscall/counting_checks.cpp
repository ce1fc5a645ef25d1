#include "counting_checks.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "jbench/events/event_file.h"
#include "raw_lines.h"

namespace jbench::test {

using Json = nlohmann::json;
using collectors::SyscallDetail;

namespace {
EventContext context_of(const Outcome& o) {
  EventContext ctx{o.run_id, o.boot_id, {{o.pid, o.start_time_ticks}}};
  for (const auto& f : o.entry["followed"]) {
    ctx.cohort.emplace(f["pid"].get<std::int64_t>(),
                       std::stoull(f["start_time_ticks"].get<std::string>()));
  }
  return ctx;
}

}  // namespace

// Every (phase, call) the program reported is in the summary with the same count and errors, and
// the summary holds nothing the program did not report.
void expect_counts(const Json& entry, pid_t pid, const Did& did) {
  long expected_total = 0;
  for (const auto& [phase, calls] : did) {
    for (const auto& [call, counts] : calls) {
      const Json* cell = summary_cell(entry, pid, phase, call);
      if (counts.first == 0) {
        EXPECT_TRUE(cell == nullptr || cell->at("count") == 0) << phase << " " << call;
        continue;
      }
      expected_total += counts.first;
      ASSERT_NE(cell, nullptr) << "pid " << pid << " " << phase << " " << call << " missing";
      EXPECT_EQ(cell->at("count").get<long>(), counts.first) << phase << " " << call;
      EXPECT_EQ(cell->at("errors").get<long>(), counts.second) << phase << " " << call;
      long in_histogram = 0;
      for (const auto& bucket : cell->at("histogram")) in_histogram += bucket[1].get<long>();
      EXPECT_EQ(in_histogram, counts.first) << "histogram of " << phase << " " << call;
    }
  }
  long summarized = 0;
  for (const auto& inc : entry["summary"]["incarnations"]) {
    if (inc["pid"] != pid) continue;
    for (const auto& [phase, calls] : inc["phases"].items()) {
      for (const auto& [call, cell] : calls.items()) {
        if (call.rfind("off-cpu:", 0) != 0 && call != "syscall:other") {
          summarized += cell["count"].get<long>();
        }
      }
    }
  }
  EXPECT_EQ(summarized, expected_total) << "the summary holds calls the program did not make";
}

void expect_scoped_to_cohort(const Outcome& o) {
  const auto pids = summary_pids(o.entry);
  EXPECT_TRUE(pids.count(o.pid)) << o.entry["summary"].dump();
  EXPECT_FALSE(pids.count(o.twin_pid)) << "the unregistered twin was counted";
  for (pid_t p : pids) EXPECT_TRUE(p == o.pid || p == o.child_pid) << "unexpected pid " << p;
}

void expect_raw_file_valid(const Outcome& o) {
  const std::string raw = o.dir + "/" + o.entry.at("raw").get<std::string>();
  const auto report = check_event_file(raw, context_of(o));
  for (const auto& p : report.problems)
    ADD_FAILURE() << p.code << " line " << p.line << ": " << p.message;
  EXPECT_EQ(report.records, o.entry["records"].get<std::uint64_t>());
}

Scenario counting(SyscallDetail detail, const std::string& backend) {
  Scenario s;
  s.detail = detail;
  s.backend = backend;
  s.startup_rounds = 1;
  s.warmup_rounds = 2;
  s.measure_rounds = 3;
  s.teardown_rounds = 1;
  s.fork_rounds_in_measure = 1;
  s.unrelated_twin = true;
  return s;
}

void expect_counting_outcome(const Outcome& o) {
  ASSERT_EQ(o.entry.value("status", ""), "ok") << o.entry.dump(2);
  EXPECT_TRUE(o.canaries_ok);
  EXPECT_EQ(o.entry["lifecycle"]["attach_verified"], true);
  EXPECT_EQ(o.entry["lifecycle"]["canaries_seen"], Json::array({0}));
  EXPECT_EQ(o.entry["lifecycle"]["ended"], Json({{"how", "exit"}, {"code", 0}}));
  EXPECT_EQ(o.entry["dropped"], 0);
  EXPECT_EQ(o.entry["malformed"], 0);
  expect_counts(o.entry, o.pid, o.did);
  ASSERT_NE(o.child_pid, 0);
  expect_counts(o.entry, o.child_pid, o.child_did);
  expect_scoped_to_cohort(o);
  ASSERT_EQ(o.entry["followed"].size(), 1u) << o.entry["followed"].dump();
  EXPECT_EQ(o.entry["followed"][0]["pid"], o.child_pid);
  EXPECT_EQ(o.entry["followed"][0]["parent"], o.pid);
  expect_raw_file_valid(o);
}

// Full detail: descriptors resolve to the file they name, ioctl requests are decoded.
void expect_file_breakdown(const Outcome& o, bool identity) {
  const std::string data = o.dir + "/work/target-" + std::to_string(o.pid) + ".dat";
  const Json* read = summary_cell(o.entry, o.pid, "measure", "read");
  ASSERT_NE(read, nullptr);
  ASSERT_EQ(read->at("files").size(), 1u) << read->dump();
  const Json& row = read->at("files")[0];
  EXPECT_EQ(row["path"], data);
  if (identity) {
    struct stat st {};
    ASSERT_EQ(::stat(data.c_str(), &st), 0);
    EXPECT_EQ(row["file"], std::to_string(major(st.st_dev)) + ":" +
                               std::to_string(minor(st.st_dev)) + ":" + std::to_string(st.st_ino));
  }
  const Json* ioctl = summary_cell(o.entry, o.pid, "measure", "ioctl");
  ASSERT_NE(ioctl, nullptr);
  const Json& requests = ioctl->at("requests");
  long sum = 0;
  for (const auto& [name, r] : requests.items()) sum += r["count"].get<long>();
  EXPECT_EQ(sum, ioctl->at("count").get<long>());
  // TCGETS on a regular file fails with ENOTTY: every one of them is an error, nothing else is.
  ASSERT_TRUE(requests.contains("TCGETS")) << requests.dump();
  EXPECT_EQ(requests["TCGETS"]["errors"], requests["TCGETS"]["count"]);
  EXPECT_EQ(requests["TCGETS"]["errors"], ioctl->at("errors"));
  EXPECT_TRUE(requests.contains("FIONREAD") && requests.contains("FIOCLEX")) << requests.dump();
  // The raw records say the same, call by call.
  long tcgets = 0;
  for (const auto& line : raw_lines(o.dir + "/" + o.entry["raw"].get<std::string>())) {
    const Json r = Json::parse(line);
    if (r.value("kind", "") != "record" || r.value("request", "") != "TCGETS") continue;
    EXPECT_EQ(r["errno"], "ENOTTY");
    EXPECT_EQ(r["result"], -25);
    if (r["pid"] == o.pid && r["phase"] == "measure") ++tcgets;
  }
  EXPECT_EQ(tcgets, requests["TCGETS"]["count"].get<long>());
}

// Every call the program and its fork said they made.
long calls_made(const Outcome& o) {
  long calls = 0;
  for (const auto& [phase, c] : o.did)
    for (const auto& [n, v] : c) calls += v.first;
  for (const auto& [phase, c] : o.child_did)
    for (const auto& [n, v] : c) calls += v.first;
  return calls;
}

// The compiled tracer's on-CPU samples of a full run, each a record of its own (0 elsewhere).
long samples_of(const Outcome& o) { return o.entry.value("cpu_samples", 0L); }

// The compiled tracer's intervals off the CPU (off-cpu:*), each a record of its own: none from
// the other backends.
long off_cpu_recorded(const Outcome& o) {
  long n = 0;
  for (const auto& inc : o.entry["summary"]["incarnations"]) {
    for (const auto& [phase, calls] : inc["phases"].items()) {
      for (const auto& [call, cell] : calls.items()) {
        if (call.rfind("off-cpu:", 0) == 0) n += cell["count"].get<long>();
      }
    }
  }
  return n;
}

}  // namespace jbench::test
