// The catalogue of lies. Each entry changes as little as possible, so that exactly one rule
// breaks; where a change would otherwise also break a derived document (a summary computed from
// raw records), that document is recomputed the way the runner computes it.
#include "mutations.h"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "collector_fixture.h"
#include "mutation_edits.h"

namespace jbench::test {
// A syscall summary as the collector writes it: one worker, one call in the measure phase.
nlohmann::json honest_syscall_summary() {
  return {{"histogram", "log2_ns"},
          {"incarnations",
           {{{"pid", 4242},
             {"start_time_ticks", "77"},
             {"worker_index", 0},
             {"origin", "registered"},
             {"parent", 1},
             {"phases",
              {{"measure",
                {{"write",
                  {{"count", 2},
                   {"errors", 0},
                   {"total_ns", "3000"},
                   {"max_ns", "2000"},
                   {"histogram", Json::array({Json::array({"1024", 2})})},
                   {"files",
                    {{{"fd", 3},
                      {"path", "/tmp/db-wal"},
                      {"file", "8:1:1234"},
                      {"count", 2},
                      {"errors", 0},
                      {"total_ns", "3000"}}}}}}}}}}}}}};
}

namespace {

// The digest of the first object of provenance/index.json that is (or is not) stored.
std::string first_object(const BundleEditor& e, bool stored) {
  const Json index = e.json("provenance/index.json");  // named: a temporary's member would dangle
  for (const auto& o : index["objects"]) {
    if (o["stored"].get<bool>() == stored) return o["sha256"];
  }
  return "no-such-object";
}

// The writer run gains an honest "spans" collector, then `tweak` tells its lie.
std::function<void(const BundleEditor&)> with_collector(CollectorTweak tweak) {
  return [tweak = std::move(tweak)](const BundleEditor& e) {
    add_spans_collector(e, kWriterRun, tweak);
  };
}

std::vector<Mutation> make_mutations() {
  const std::string writer_run_json = run_file(kWriterRun, "run.json");
  const std::string mixed_run_json = run_file(kMixedRun, "run.json");
  return {
      // --- checksums: SHA256SUMS is deliberately left as it is ---
      {"checksum-mismatch",
       {"sums.mismatch"},
       "one byte of logs/session.log changed after SHA256SUMS was written",
       [](const BundleEditor& e) {
         std::string t = e.text("logs/session.log");
         t[0] = static_cast<char>(t[0] ^ 1);
         e.write_text("logs/session.log", t);
       }},
      {"sums-missing",
       {"sums.missing"},
       "SHA256SUMS deleted",
       [](const BundleEditor& e) { e.remove("SHA256SUMS"); }},
      {"extra-file",
       {"sums.file_unlisted"},
       "a file added that SHA256SUMS does not list",
       [](const BundleEditor& e) { e.write_text("notes.txt", "added later\n"); }},
      {"listed-file-missing",
       {"sums.file_missing"},
       "a file SHA256SUMS lists was deleted",
       [](const BundleEditor& e) { e.remove("logs/session.log"); }},
      // --- documents and schemas ---
      {"run-breaks-schema",
       {"schema.run"},
       "a required member (harness_cpu) removed from a run.json",
       edit(writer_run_json, [](Json& d) { d.erase("harness_cpu"); })},
      {"raw-result-breaks-schema",
       {"schema.worker-result"},
       "a raw worker result whose status is not a status word",
       edit_raw(kWriterRun, [](Json& d) { d["status"] = "fine"; })},
      {"build-info-breaks-schema",
       {"schema.build-info"},
       "provenance/build.json without its source revision",
       edit("provenance/build.json", [](Json& d) { d.erase("source"); })},
      // --- retained provenance: SHA256SUMS is recomputed, so the store check must catch it ---
      {"provenance-object-byte-flipped",
       {"provenance.object_mismatch"},
       "one byte of a stored provenance object changed",
       [](const BundleEditor& e) {
         const std::string file = "provenance/objects/" + first_object(e, true);
         std::string t = e.text(file);
         t[t.size() / 2] = static_cast<char>(t[t.size() / 2] ^ 1);
         e.write_text(file, t);
         e.rewrite_sums();
       }},
      {"provenance-object-deleted",
       {"provenance.object_missing"},
       "a stored provenance object deleted (and dropped from SHA256SUMS)",
       [](const BundleEditor& e) {
         e.remove("provenance/objects/" + first_object(e, true));
         e.rewrite_sums();
       }},
      {"provenance-left-out-unnamed",
       {"provenance.dangling_reference", "provenance.totals_mismatch"},
       "an object the cap left out dropped from the index instead of named",
       edit("provenance/index.json",
            [](Json& d) {
              auto& objects = d["objects"];
              for (auto it = objects.begin(); it != objects.end(); ++it) {
                if (!(*it)["stored"].get<bool>()) {
                  objects.erase(it);
                  return;
                }
              }
            })},
      {"provenance-index-breaks-schema",
       {"schema.provenance-index", "provenance.not_retained"},
       "a left-out object without the reason it was left out",
       edit("provenance/index.json",
            [](Json& d) {
              for (auto& o : d["objects"]) {
                if (!o["stored"].get<bool>()) {
                  o.erase("left_out");
                  return;
                }
              }
            })},
      {"manifest-breaks-schema",
       {"schema.manifest"},
       "manifest.json claims schema_version 99",
       edit("manifest.json", [](Json& d) { d["schema_version"] = 99; })},
      {"summary-deleted",
       {"document.missing"},
       "a run's summary.json deleted (and dropped from SHA256SUMS)",
       [](const BundleEditor& e) {
         e.remove(run_file(kWriterRun, "summary.json"));
         e.rewrite_sums();
       }},
      {"raw-not-json",
       {"document.not_json"},
       "a raw worker result cut in half",
       [](const BundleEditor& e) {
         const std::string f = run_file(kWriterRun, "raw/worker-0.result.json");
         const std::string t = e.text(f);
         e.write_text(f, t.substr(0, t.size() / 2));
         e.rewrite_sums();
       }},
      {"raw-renumbered",
       {"raw.numbering"},
       "worker-0.result.json renamed worker-1.result.json",
       [](const BundleEditor& e) {
         const std::string f = run_file(kWriterRun, "raw/worker-0.result.json");
         e.write_text(run_file(kWriterRun, "raw/worker-1.result.json"), e.text(f));
         e.remove(f);
         e.rewrite_sums();
       }},
      // --- the bundle's own marks ---
      {"marked-invalid",
       {"bundle.marked_invalid"},
       "an unchanged bundle under a name ending in .invalid",
       [](const BundleEditor&) {},
       "fixture.invalid"},
      {"recorded-invalid",
       {"bundle.recorded_invalid"},
       "validation.json says the checks before SHA256SUMS failed",
       edit("validation.json", [](Json& d) { d["valid"] = false; })},
      {"session-running",
       {"schema.manifest", "bundle.incomplete"},
       "manifest.json says the session is still running",
       edit("manifest.json", [](Json& d) { d["status"] = "running"; })},
      // --- the session's run list and matrix ---
      {"run-dir-missing",
       {"runs.missing_dir"},
       "a run the manifest lists has no directory under runs/",
       [](const BundleEditor& e) {
         e.remove("runs/" + kMixedRun);
         e.rewrite_sums();
       }},
      {"run-dir-unlisted",
       {"runs.unlisted_dir"},
       "a run directory the manifest does not list",
       [](const BundleEditor& e) {
         for (const char* f : {"run.json", "summary.json", "raw/worker-0.result.json",
                               "raw/cpu.readings.json", "logs/protocol.jsonl"}) {
           e.write_text(run_file("extra", f), e.text(run_file(kWriterRun, f)));
         }
         Json run = e.json(run_file("extra", "run.json"));
         run["id"] = "extra";
         e.write_json(run_file("extra", "run.json"), run);
         e.rewrite_sums();
       }},
      {"run-id-mismatch",
       {"runs.id_mismatch"},
       "a run.json whose id is not its directory's name",
       edit(writer_run_json, [](Json& d) { d["id"] = "w1.persistent.writer.tiny.baseline.r9"; })},
      {"run-status-mismatch",
       // The execution states the manifest claims were computed from the run list it had.
       {"runs.status_mismatch", "manifest.execution_mismatch"},
       "the manifest says a run failed, its run.json says ok",
       edit("manifest.json",
            [](Json& d) {
              d["runs"][0]["status"] = "failed";
              d["runs"][0]["reason"] = "worker 0 exited with status 1";  // the schema asks one
            })},
      // run.json's trace also disagrees with the manifest's and the plan's statements of it.
      {"run-trace-relabelled",
       {"runs.trace_mismatch", "runs.twin_mismatch"},
       "a baseline run's trace relabelled full, its trace_mode and values left as they ran",
       edit(writer_run_json, [](Json& d) { d["trace"] = "full"; })},
      // A run's facts stated again in the manifest and the plan (each edited alone).
      {"run-relabelled-whole",
       {"runs.twin_mismatch", "runs.values_mismatch"},
       "a baseline run relabelled full everywhere in its run.json (trace, trace_mode.mode, "
       "values.trace); the manifest and the plan still say baseline",
       edit(writer_run_json,
            [](Json& d) {
              d["trace"] = "full";
              d["trace_mode"]["mode"] = "full";
              d["values"]["trace"] = "full";
            })},
      {"manifest-trace-edited",
       {"runs.twin_mismatch"},
       "the manifest lists the writer run as full, its run.json and the plan say baseline",
       edit("manifest.json", [](Json& d) { d["runs"][0]["trace"] = "full"; })},
      {"run-block-edited",
       {"runs.twin_mismatch"},
       "run.json moved to another block than the manifest and the plan put it in",
       edit(writer_run_json, [](Json& d) { d["block"] = d["block"].get<int>() + 1; })},
      {"plan-cell-values-edited",
       {"runs.twin_mismatch", "provenance.configuration_mismatch"},
       "plan.json's cell of the writer run gives another lane than the run ran",
       edit("plan.json", [](Json& d) { d["cells"][0]["values"]["lane"] = "reader"; })},
      {"execution-state-edited",
       {"manifest.execution_mismatch"},
       "the manifest calls a measured lane attempted_failed, though its runs ended ok",
       edit("manifest.json",
            [](Json& d) {
              d["execution"]["axes"][2]["values"][0]["state"] = "attempted_failed";
              d["execution"]["axes"][2]["values"][0]["first_reason"] = "made up";
            })},
      {"manifest-throughput-edited",
       {"runs.throughput_mismatch"},
       "the manifest lists the writer run at twice the throughput its summary.json states",
       edit("manifest.json",
            [](Json& d) {
              d["runs"][0]["throughput_ops_per_s"] =
                  2 * d["runs"][0]["throughput_ops_per_s"].get<double>();
            })},
      {"run-values-edited",
       {"runs.values_mismatch", "manifest.execution_mismatch"},
       "the manifest lists the writer run under another lane than its run.json",
       edit("manifest.json", [](Json& d) { d["runs"][0]["values"]["lane"] = "reader"; })},
      {"plan-mismatch",
       {"runs.plan_mismatch", "provenance.configuration_mismatch"},
       "plan.json's second run has another id than the manifest's",
       edit("plan.json", [](Json& d) { d["runs"][1]["id"] = kMixedRun + "x"; })},
      {"matrix-edited",
       {"matrix.sha256_mismatch"},
       "matrix.yaml edited after the run (its sha256 no longer the manifest's)",
       [](const BundleEditor& e) {
         e.write_text("matrix.yaml", e.text("matrix.yaml") + "# edited\n");
         e.rewrite_sums();
       }},
      // --- phases, cohort, workers ---
      {"boundaries-out-of-order",
       {"boundaries.order"},
       "measure_end_ns moved before measure_start_ns",
       edit(mixed_run_json,
            [](Json& d) {
              auto& b = d["boundaries"];
              b["measure_end_ns"] = std::to_string(ns(b["measure_start_ns"]) - 1);
            })},
      // The run schema also requires every boundary of an ok run; both say so.
      {"boundary-missing",
       {"schema.run", "boundaries.missing"},
       "an ok run without warmup_end_ns",
       edit(mixed_run_json, [](Json& d) { d["boundaries"].erase("warmup_end_ns"); })},
      {"registered-after-warmup",
       {"cohort.registered_late"},
       "a cohort member registered 1 ns after warmup_start_ns",
       edit(writer_run_json,
            [](Json& d) {
              d["cohort"]["members"][0]["registered_ns"] =
                  std::to_string(ns(d["boundaries"]["warmup_start_ns"]) + 1);
            })},
      {"duplicate-incarnation",
       {"cohort.duplicate_incarnation"},
       "the same (boot_id, pid, start_time_ticks) registered twice, with another runtime id",
       edit(writer_run_json,
            [](Json& d) {
              Json copy = d["cohort"]["members"][0];
              copy["runtime_id"] = "00000000000000000000000000000001";
              d["cohort"]["members"].push_back(copy);
            })},
      {"duplicate-runtime-id",
       {"cohort.duplicate_runtime_id"},
       "two incarnations claiming one runtime id",
       edit(writer_run_json,
            [](Json& d) {
              Json copy = d["cohort"]["members"][0];
              copy["pid"] = copy["pid"].get<int>() + 1;
              d["cohort"]["members"].push_back(copy);
            })},
      {"worker-unregistered",
       {"cohort.worker_unregistered"},
       "an ok run's worker whose pid is not in the cohort",
       edit(writer_run_json,
            [](Json& d) { d["workers"][0]["pid"] = d["workers"][0]["pid"].get<int>() + 1; })},
      {"worker-killed-in-ok-run",
       {"workers.bad_exit"},
       "an ok run whose worker was killed by SIGKILL",
       edit(mixed_run_json,
            [](Json& d) {
              auto& exit = d["workers"][0]["exit"];
              exit["signaled"] = true;
              exit["signal"] = 9;
              exit["description"] = "killed by signal 9 (SIGKILL)";
            })},
      {"worker-failed-in-ok-run",
       {"workers.bad_exit"},
       "an ok run whose worker exited with status 3",
       edit(mixed_run_json,
            [](Json& d) {
              auto& exit = d["workers"][0]["exit"];
              exit["code"] = 3;
              exit["description"] = "exit 3";
            })},
      // --- collectors ---
      {"collector-failed",
       {"collectors.failed"},
       "a run lists a collector that ended collector_failed",
       with_collector({nullptr,
                       [](Json& c) {
                         c["status"] = "collector_failed";
                         c["reason"] = "the bpftrace backend exited with code 1";
                       }})},
      {"collector-nonzero-exit",
       {"collectors.bad_end", "events.bad_end"},
       "a collector that claims ok although it exited with code 3",
       with_collector({[](std::vector<Json>& l) { l.back()["ended"]["code"] = 3; },
                       [](Json& c) { c["lifecycle"]["ended"]["code"] = 3; }})},
      {"collector-attach-not-verified",
       {"collectors.not_verified"},
       "a collector whose attachment was never verified by the workers' canaries",
       with_collector({nullptr,
                       [](Json& c) {
                         c["lifecycle"]["attach_verified"] = false;
                         c["lifecycle"]["canaries_seen"] = Json::array();
                       }})},
      {"collector-dropped-events",
       {"collectors.lost_records", "events.dropped"},
       "a collector that dropped 2 events and still claims ok",
       with_collector({[](std::vector<Json>& l) { l.back()["dropped"] = 2; },
                       [](Json& c) { c["dropped"] = 2; }})},
      {"required-collector-unavailable",
       {"collectors.required_unavailable"},
       "the trace mode requires the spans collector, which was not available",
       [](const BundleEditor& e) {
         add_spans_collector(e, kWriterRun, {nullptr, [](Json& c) {
                                               c["status"] = "not_available";
                                               c["reason"] = "no USDT probes in the worker binary";
                                             }});
         const std::string run = run_file(kWriterRun, "run.json");
         Json d = e.json(run);
         d["trace_mode"]["requires"] = Json::array({"spans"});
         e.write_json(run, d);
         e.rewrite_sums();
       }},
      {"required-collector-missing",
       {"collectors.required_missing"},
       "the trace mode requires a syscalls collector the run does not list",
       edit(writer_run_json,
            [](Json& d) { d["trace_mode"]["requires"] = Json::array({"syscalls"}); })},
      {"collector-no-reason",
       {"collectors.no_reason"},
       "a collector not_available without saying why",
       with_collector({nullptr, [](Json& c) { c["status"] = "not_available"; }})},
      {"events-malformed-record",
       {"events.malformed"},
       "a raw record whose t_ns is a bare number (it may be rounded by a JSON reader)",
       with_collector({[](std::vector<Json>& l) {
                         Json bad = l[1];
                         bad["tid"] = bad["tid"].get<int>() + 1;
                         bad["seq"] = "0";
                         bad["t_ns"] = 12345;
                         l.insert(l.begin() + 2, bad);
                         l.back()["records"] = 6;
                       },
                       [](Json& c) { c["records"] = 6; }})},
      {"events-counter-unreadable-value",
       {"events.malformed"},
       "a counter record whose value is no signed decimal (the summary would read it as 0)",
       with_collector({[](std::vector<Json>& l) {
                         Json bad = l[1];
                         bad["type"] = "counter";
                         bad["name"] = "bytes_copied";
                         bad["value"] = "12x";
                         bad["tid"] = bad["tid"].get<int>() + 1;
                         bad["seq"] = "0";
                         l.insert(l.begin() + 2, bad);
                         l.back()["records"] = 6;
                       },
                       [](Json& c) { c["records"] = 6; }})},
      {"events-cut-before-trailer",
       {"events.no_trailer"},
       "a raw file cut off before its trailer",
       with_collector({[](std::vector<Json>& l) { l.pop_back(); }, nullptr})},
      {"events-not-monotonic",
       {"events.not_monotonic"},
       "a record of a stream timestamped before the one before it",
       with_collector(
           {[](std::vector<Json>& l) { l[4]["t_ns"] = std::to_string(ns(l[3]["t_ns"]) - 500); },
            nullptr})},
      {"events-orphan-span",
       {"events.orphan_span"},
       "a span whose parent is not in the run",
       with_collector({[](std::vector<Json>& l) { l[3]["parent_id"] = "ffff"; }, nullptr})},
      {"events-outside-cohort",
       {"events.outside_cohort"},
       "events from a process that is not a registered incarnation of the run",
       with_collector({[](std::vector<Json>& l) {
                         for (auto& r : l) {
                           if (r["kind"] == "record") r["pid"] = r["pid"].get<int>() + 100000;
                         }
                       },
                       nullptr})},
      {"events-unknown-schema-version",
       {"events.unknown_version"},
       "a raw file of event schema version 2",
       with_collector({[](std::vector<Json>& l) { l.front()["schema_version"] = 2; }, nullptr})},
      {"events-raw-missing",
       {"events.missing_raw"},
       "a collector whose raw file is not in the bundle",
       [](const BundleEditor& e) {
         add_spans_collector(e, kWriterRun);
         e.remove("runs/" + kWriterRun + "/raw/spans.events.jsonl");
         e.rewrite_sums();
       }},
      {"events-compressed-piece-cut",
       {"events.unreadable"},
       "64 bytes cut from the middle of a raw file kept compressed, the sums recomputed",
       [](const BundleEditor& e) {
         add_spans_collector(e, kWriterRun);
         const std::string kept = keep_spans_compressed(e, kWriterRun);
         std::string bytes = e.text(kept);
         bytes.erase(bytes.size() / 2 - 32, 64);
         e.write_text(kept, bytes);
         e.rewrite_sums();
       }},
      // The run schema names the five words too; both say so.
      {"collector-unknown-status",
       {"schema.run", "collectors.unknown_status"},
       "a collector status word that is not one of the five",
       edit(writer_run_json,
            [](Json& d) {
              d["trace_mode"]["collectors"].push_back(
                  {{"name", "usdt"}, {"status", "partially_ok"}});
            })},
      // --- raw documents ---
      {"cpu-readings-field-missing",
       {"schema.cpu-readings"},
       "a cpu reading without system_ticks and with threads renamed (summary recomputed)",
       [](const BundleEditor& e) {
         const std::string f = run_file(kWriterRun, "raw/cpu.readings.json");
         Json d = e.json(f);
         auto& reading = d["incarnations"][0]["readings"][1];
         reading.erase("system_ticks");
         reading["thread_count"] = reading["threads"];
         reading.erase("threads");
         e.write_json(f, d);
         e.resummarize(kWriterRun);
         e.rewrite_sums();
       }},
      {"cpu-readings-faults-without-io",
       {"schema.cpu-readings"},
       "a cpu reading with page faults but none of the I/O counts read with them (summary "
       "recomputed)",
       [](const BundleEditor& e) {
         const std::string f = run_file(kWriterRun, "raw/cpu.readings.json");
         Json d = e.json(f);
         auto& reading = d["incarnations"][0]["readings"][1];
         reading["minor_faults"] = 12;
         reading["major_faults"] = 0;
         e.write_json(f, d);
         e.resummarize(kWriterRun);
         e.rewrite_sums();
       }},
      {"cpu-readings-missing",
       {"document.missing"},
       "the cpu collector names raw/cpu.readings.json, which was deleted (summary recomputed)",
       [](const BundleEditor& e) {
         e.remove(run_file(kWriterRun, "raw/cpu.readings.json"));
         e.resummarize(kWriterRun);
         e.rewrite_sums();
       }},
      {"syscall-summary-unknown-field",
       {"schema.syscall-summary"},
       "a syscall summary whose call totals carry a field the schema does not know",
       [](const BundleEditor& e) {
         Json summary = honest_syscall_summary();
         summary["incarnations"][0]["phases"]["measure"]["write"]["mean_ns"] = "5";
         e.write_json(run_file(kWriterRun, "raw/syscall.summary.json"), summary);
         e.rewrite_sums();
       }},
      // --- the protocol transcript: mutations_transcript.cpp ---
      // --- summaries and lanes ---
      {"summary-disagrees",
       {"summary.mismatch"},
       "summary.json counts one write more than its raw records",
       edit(run_file(kWriterRun, "summary.json"),
            [](Json& d) {
              d["measure"]["writes"] = d["measure"]["writes"].get<std::uint64_t>() + 1;
            })},
      {"mixed-without-reads",
       {"lane.no_reads"},
       "a mixed run whose raw records (and so its summary) count no reads",
       edit_raw(kMixedRun, [](Json& d) { d["reads"] = 0; })},
      {"writer-without-writes",
       {"lane.no_writes"},
       "a writer run whose raw records (and so its summary) count no writes",
       edit_raw(kWriterRun, [](Json& d) { d["writes"] = 0; })},
  };
}

}  // namespace

const std::vector<Mutation>& mutations() {
  static const std::vector<Mutation> all = [] {
    std::vector<Mutation> out = make_mutations();
    for (auto& m : transcript_mutations()) out.push_back(std::move(m));
    return out;
  }();
  return all;
}

}  // namespace jbench::test
