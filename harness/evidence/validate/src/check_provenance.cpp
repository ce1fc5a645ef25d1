// Retained provenance (docs/bundle.md): the content-addressed store provenance/objects/ against
// provenance/index.json. SHA256SUMS is recomputed by anyone who edits a bundle, so it is this
// check, not the checksums, that proves a stored binary is the one its digest names.
#include <fmt/format.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <set>

#include "checks.h"
#include "jbench/bundle/sha256sums.h"
#include "jbench/provenance/retained.h"

namespace jbench::validate {
namespace {

constexpr const char* kIndex = "provenance/index.json";
constexpr const char* kObjects = "provenance/objects";

struct Listed {
  std::string kind;
  bool stored = false;
  bool referenced = false;
};

bool is_regular(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Every object entry once; stored ones checked byte for byte against their names.
std::map<std::string, Listed> check_objects(const BundleView& b, const Json& index, Findings& f) {
  std::map<std::string, Listed> listed;
  const Json* objects = member(index, "objects");
  if (!objects || !objects->is_array()) return listed;
  std::uint64_t stored_sum = 0, left_out_sum = 0;
  for (std::size_t i = 0; i < objects->size(); ++i) {
    const Json& o = (*objects)[i];
    const std::string at = fmt::format("/objects/{}", i);
    const auto sha = string_at(o, "sha256");
    const auto size = u64_at(o, "size_bytes");
    const Json* stored = member(o, "stored");
    if (!sha || !size || !stored || !stored->is_boolean()) continue;  // the schema reports it
    if (!listed.emplace(*sha, Listed{string_at(o, "kind").value_or(""), stored->get<bool>()})
             .second) {
      f.add("provenance.duplicate_object", kIndex, at, "object " + *sha + " is listed twice");
      continue;
    }
    const std::string file = fmt::format("{}/{}", kObjects, *sha);
    const std::string path = b.root + "/" + file;
    if (!stored->get<bool>()) {
      left_out_sum += *size;
      const std::string why = string_at(o, "left_out").value_or("");
      if (why != kLeftOutOverCap) {
        f.add("provenance.not_retained", kIndex, at + "/left_out",
              fmt::format("object {} was meant to be kept but is not: {}", *sha, why));
      }
      if (is_regular(path)) {
        f.add("provenance.object_unlisted", file, "",
              "the index lists this object as left out, yet the bundle holds it");
      }
      continue;
    }
    stored_sum += *size;
    if (!is_regular(path)) {
      f.add("provenance.object_missing", file, "",
            fmt::format("the index lists object {} as stored ({} bytes); the bundle has no "
                        "regular file {}",
                        *sha, *size, file));
      continue;
    }
    struct stat st {};
    ::lstat(path.c_str(), &st);
    auto digest = file_sha256(path);
    if (!digest) {
      f.add("provenance.object_unreadable", file, "", digest.error().message);
    } else if (*digest != *sha || static_cast<std::uint64_t>(st.st_size) != *size) {
      f.add("provenance.object_mismatch", file, "",
            fmt::format("its content ({} bytes) hashes to {}, not to its name ({} bytes listed)",
                        st.st_size, *digest, *size));
    }
  }
  const auto cap = u64_at(index, "cap_bytes");
  if (cap && stored_sum > *cap) {
    f.add("provenance.over_cap", kIndex, "/stored_bytes",
          fmt::format("{} bytes are stored, more than the cap of {} bytes", stored_sum, *cap));
  }
  if (u64_at(index, "stored_bytes") != stored_sum ||
      u64_at(index, "left_out_bytes") != left_out_sum) {
    f.add("provenance.totals_mismatch", kIndex, "",
          fmt::format("the objects add up to {} bytes stored and {} left out; the index says {} "
                      "and {}",
                      stored_sum, left_out_sum, index.value("stored_bytes", Json()).dump(),
                      index.value("left_out_bytes", Json()).dump()));
  }
  return listed;
}

void check_unlisted_files(const BundleView& b, const std::map<std::string, Listed>& listed,
                          Findings& f) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(b.root + "/" + kObjects, ec)) {
    const std::string name = e.path().filename().string();
    auto it = listed.find(name);
    if (it == listed.end()) {
      f.add("provenance.object_unlisted", std::string(kObjects) + "/" + name, "",
            "a file in the store that provenance/index.json does not list");
    }
  }
}

// A reference from a binary description to the store: it must name an object of that kind.
void resolve(const Json& holder, const char* key, const std::string& kind, const std::string& at,
             std::map<std::string, Listed>& listed, Findings& f) {
  const auto sha = string_at(holder, key);
  if (!sha) return;
  auto it = listed.find(*sha);
  if (it == listed.end() || it->second.kind != kind) {
    f.add("provenance.dangling_reference", kIndex, at + "/" + key,
          fmt::format("{} {} is not an object of the index", kind, *sha));
    return;
  }
  it->second.referenced = true;
}

void resolve_binary(const Json& d, const std::string& at, std::map<std::string, Listed>& listed,
                    Findings& f) {
  if (!d.is_object() || member(d, "error")) return;
  resolve(d, "sha256", "binary", at, listed, f);
  if (const Json* debug = member(d, "debug_file")) {
    resolve(*debug, "sha256", "debug_file", at + "/debug_file", listed, f);
  }
  if (const Json* map = member(d, "symbol_map")) {
    resolve(*map, "sha256", "symbol_map", at + "/symbol_map", listed, f);
  }
}

// The matrix's hash against the manifest's record of it (check_session compares that with the
// file), the plan's against plan.json itself (nothing else records it).
void check_configuration(const BundleView& b, const Json& index, Findings& f) {
  const Json* conf = member(index, "configuration");
  if (!conf) return;
  const Json* matrix = b.manifest ? member(*b.manifest, "matrix") : nullptr;
  const auto matrix_recorded = matrix ? string_at(*matrix, "sha256") : std::nullopt;
  const auto matrix_sha = string_at(*conf, "matrix_sha256");
  if (matrix_recorded && matrix_sha && *matrix_recorded != *matrix_sha) {
    f.add("provenance.configuration_mismatch", kIndex, "/configuration/matrix_sha256",
          fmt::format("manifest.json records the matrix as {}, the index as {}", *matrix_recorded,
                      *matrix_sha));
  }
  const auto plan_sha = string_at(*conf, "plan_sha256");
  auto digest = file_sha256(b.root + "/plan.json");
  if (plan_sha && digest && *digest != *plan_sha) {
    f.add("provenance.configuration_mismatch", kIndex, "/configuration/plan_sha256",
          fmt::format("plan.json hashes to {}, the index says {}", *digest, *plan_sha));
  }
}

void check_runs(const BundleView& b, const Json& index, const std::set<std::string>& sets,
                Findings& f) {
  std::map<std::string, std::string> status;  // manifest run id -> status
  if (b.manifest) {
    if (const Json* runs = member(*b.manifest, "runs"); runs && runs->is_array()) {
      for (const auto& r : *runs) {
        if (auto id = string_at(r, "id")) status[*id] = string_at(r, "status").value_or("");
      }
    }
  }
  std::set<std::string> with_processes, seen;
  const Json* runs = member(index, "runs");
  if (!runs || !runs->is_array()) return;
  for (std::size_t i = 0; i < runs->size(); ++i) {
    const Json& r = (*runs)[i];
    const std::string at = fmt::format("/runs/{}", i);
    const auto id = string_at(r, "id");
    if (!id) continue;
    if (!seen.insert(*id).second || !status.count(*id)) {
      f.add("provenance.unknown_run", kIndex, at + "/id",
            fmt::format("run '{}' is listed twice or is not a run of manifest.json", *id));
      continue;
    }
    if (const Json* p = member(r, "processes"); p && p->is_array()) {
      for (std::size_t k = 0; k < p->size(); ++k) {
        const auto set = string_at((*p)[k], "set");
        if (set && !sets.count(*set)) {
          f.add("provenance.dangling_reference", kIndex, fmt::format("{}/processes/{}/set", at, k),
                "no binary set '" + *set + "'");
        }
      }
      if (!p->empty()) with_processes.insert(*id);
    }
    // The configure messages as the transcript has them, hashed the way the session hashed them.
    // A missing, unreadable or oversized transcript is the transcript check's finding, not a
    // second one here: it is read through the same bounded reader, its findings set aside.
    const std::string transcript_file = "runs/" + *id + "/logs/protocol.jsonl";
    const Json* wc = member(r, "worker_configuration");
    std::vector<Finding> reported_elsewhere;
    Findings set_aside(reported_elsewhere);
    const auto transcript = wc ? read_document(b.root, transcript_file, set_aside) : std::nullopt;
    if (transcript && *wc != configure_message_hashes(*transcript)) {
      f.add("provenance.configuration_mismatch", kIndex, at + "/worker_configuration",
            "the configure messages of " + transcript_file + " hash otherwise");
    }
  }
  for (const auto& [id, s] : status) {
    if (s == "ok" && !with_processes.count(id)) {
      f.add("provenance.run_missing", kIndex, "/runs",
            fmt::format("run '{}' is ok but its workers' binaries are not recorded", id));
    }
  }
}

}  // namespace

void check_provenance(const BundleView& bundle, Findings& findings) {
  if (!bundle.provenance_index || !bundle.provenance_index->is_object()) return;
  const Json& index = *bundle.provenance_index;
  auto listed = check_objects(bundle, index, findings);
  check_unlisted_files(bundle, listed, findings);
  std::set<std::string> sets;
  if (const Json* s = member(index, "binary_sets"); s && s->is_array()) {
    for (std::size_t i = 0; i < s->size(); ++i) {
      const Json& set = (*s)[i];
      const std::string at = fmt::format("/binary_sets/{}", i);
      if (auto id = string_at(set, "id"); id && !sets.insert(*id).second) {
        findings.add("provenance.duplicate_set", kIndex, at + "/id", "set '" + *id + "' twice");
      }
      if (const Json* bins = member(set, "binaries"); bins && bins->is_array()) {
        for (std::size_t k = 0; k < bins->size(); ++k) {
          resolve_binary((*bins)[k], fmt::format("{}/binaries/{}", at, k), listed, findings);
        }
      }
    }
  }
  if (const Json* runs = member(index, "runs"); runs && runs->is_array()) {
    for (std::size_t i = 0; i < runs->size(); ++i) {
      if (const Json* t = member((*runs)[i], "tracer"); t && t->is_object()) {
        if (const Json* bin = member(*t, "binary")) {
          resolve_binary(*bin, fmt::format("/runs/{}/tracer/binary", i), listed, findings);
        }
      }
    }
  }
  for (const auto& [sha, l] : listed) {
    if (!l.referenced) {
      findings.add("provenance.unreferenced_object", kIndex, "/objects",
                   "object " + sha + " is named by no binary, debug file or symbol map");
    }
  }
  check_configuration(bundle, index, findings);
  check_runs(bundle, index, sets, findings);
}

}  // namespace jbench::validate
