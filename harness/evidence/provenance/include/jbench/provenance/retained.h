// Retained provenance: what a session's runs were made of, kept inside the bundle so a trace can
// be symbolized and a result reproduced long after the host has changed.
//
//   RetainedProvenance retained(bundle, matrix.limits.provenance_bytes());
//   retained.configuration(matrix_text, plan_text);
//   // per run, while its workers are alive and idle after measuring:
//   retained.run_processes(run_id, worker_pids);
//   // per run, once its run.json is known:
//   for (const StoredOnce& s : retained.run_finished(run_id, run_doc, run_dir, transcript))
//     ...  // s.file is in the store now: the run need not keep its own copy
//   bundle.write_json("provenance/index.json", retained.index());
//
// Kept in provenance/objects/<sha256> (content-addressed, so each distinct file is stored once
// in the whole session): every worker's executable and mapped libraries (an LD_PRELOADed library
// included), the run's tracer binary, their separate debug files (by build-id or
// .gnu_debuglink), and a symbol map of each (elf_symbols.h). The bytes stored stay within the
// cap; an object that does not fit is named in the index with its digest, size and paths and
// "left out: over the provenance cap". Candidates of a run are offered smallest-use-first:
// symbol maps, then binaries, then debug files.
//
// provenance/index.json (manifests/provenance-index.schema.json) lists every object once, the
// distinct sets of binaries the workers ran (a session whose runs all ran the same binaries has
// one set; a run whose workers differ gets its own), and per run: which set each worker ran,
// the tracer (binary and version) and the sha256 of each worker's configure message.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace jbench {

class StagingBundle;

// A file of a run's directory whose bytes the store holds (the compiled tracer's object, the
// same in every traced run): `file` relative to the run directory, `object` the bundle's path
// of the stored copy (provenance/objects/<sha256>).
struct StoredOnce {
  std::string file;
  std::string object;
};

// The reason an object the cap left out is listed with (any other reason is a failure).
inline constexpr const char* kLeftOutOverCap = "left out: over the provenance cap";

class RetainedProvenance {
 public:
  RetainedProvenance(StagingBundle& bundle, std::uint64_t cap_bytes);
  ~RetainedProvenance();
  RetainedProvenance(const RetainedProvenance&) = delete;
  RetainedProvenance& operator=(const RetainedProvenance&) = delete;

  // The sha256 of the matrix as given and of plan.json as written.
  void configuration(std::string_view matrix_text, std::string_view plan_text);
  // The binaries of each worker process, read from /proc while they are alive.
  void run_processes(const std::string& run_id, const std::vector<pid_t>& workers);
  // The tracer the run's syscall collector ran (resolved on PATH, version from its raw file's
  // header), and the configure messages of the transcript. `run_dir` is absolute. Gives the
  // run's own files now held in the store, which the run can then drop.
  std::vector<StoredOnce> run_finished(const std::string& run_id, const nlohmann::json& run_doc,
                                       const std::string& run_dir, std::string_view transcript);

  nlohmann::json index() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The sha256 of each worker's configure message in a run's transcript (logs/protocol.jsonl):
// [{"worker": i, "sha256": <of the line as sent>}] in worker order. Lines that do not parse
// are skipped here (the validator judges the transcript).
nlohmann::json configure_message_hashes(std::string_view transcript);

}  // namespace jbench
