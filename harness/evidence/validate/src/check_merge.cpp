// A merged bundle (`jbench merge`, docs/distributed.md) against the shards' own documents it
// keeps under shards/<K>/: every run's files are the bytes its shard's SHA256SUMS listed, every
// run is one its shard's manifest listed, with the status and host it recorded, and no run of a
// shard is left out. SHA256SUMS at the top proves the merged bundle was not changed after it was
// written; this proves the merge copied what the shards wrote.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "checks.h"
#include "jbench/bundle/sha256sums.h"

namespace jbench::validate {
namespace {

namespace fs = std::filesystem;

// A SHA256SUMS text as path -> digest; malformed lines are the shard's own sums check's concern.
std::map<std::string, std::string> parse_sums(const std::string& text) {
  std::map<std::string, std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    if (line.size() > 66 && line[64] == ' ' && line[65] == ' ') {
      out[line.substr(66)] = line.substr(0, 64);
    }
    at = end + 1;
  }
  return out;
}

struct ShardCopy {
  std::map<std::string, std::string> sums;  // the shard's SHA256SUMS
  std::map<std::string, Json> runs;         // its manifest's run entries by id
  Json host;
};

// Every regular file below runs/<id>/, as paths relative to the bundle.
std::vector<std::string> run_files(const std::string& root, const std::string& id) {
  std::vector<std::string> out;
  std::error_code ec;
  const fs::path dir = fs::path(root) / "runs" / id;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) {
      out.push_back(fs::relative(it->path(), root, ec).generic_string());
    }
  }
  return out;
}

// The shards' kept copies, by index: their SHA256SUMS against the merge's record of them, their
// host and runs.
std::map<std::uint64_t, ShardCopy> shard_copies(const BundleView& bundle, const Json& shards,
                                                Findings& findings) {
  std::map<std::uint64_t, ShardCopy> copies;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const Json& s = shards[i];
    const auto index = u64_at(s, "index");
    const auto copy = string_at(s, "copy");
    if (!index || !copy) continue;
    const std::string at = fmt::format("/merge/shards/{}", i);
    if (*copy != fmt::format("shards/{}", *index)) {
      findings.add(
          "merge.record_mismatch", "manifest.json", at + "/copy",
          fmt::format("shard {}'s copy is said to be '{}', not shards/{}", *index, *copy, *index));
      continue;
    }
    ShardCopy c;
    const std::string sums_file = *copy + "/" + kSha256SumsName;
    const auto sums_text = read_document(bundle.root, sums_file, findings);
    const auto manifest = load_plain_json(bundle.root, *copy + "/manifest.json", findings);
    if (!sums_text || !manifest) continue;
    const auto digest = file_sha256(bundle.root + "/" + sums_file);
    const auto recorded = string_at(s, "sums_sha256");
    if (digest && recorded && *digest != *recorded) {
      findings.add("merge.shard_copy_mismatch", sums_file, "",
                   fmt::format("hashes to {}; the merge recorded the shard's SHA256SUMS as {}",
                               *digest, *recorded));
    }
    c.sums = parse_sums(*sums_text);
    if (const Json* h = member(*manifest, "host")) c.host = *h;
    if (const Json* runs = member(*manifest, "runs"); runs && runs->is_array()) {
      for (const Json& r : *runs) {
        if (auto id = string_at(r, "id")) c.runs[*id] = r;
      }
    }
    copies[*index] = std::move(c);
  }
  return copies;
}

// A merged run's manifest entry against its shard's: its status and where it ran.
void check_run_entry(const std::string& id, std::uint64_t shard, const Json& r, const Json& listed,
                     const ShardCopy& c, const std::string& at, Findings& findings) {
  if (string_at(listed, "status") != string_at(r, "status")) {
    findings.add("merge.record_mismatch", "manifest.json", at + "/status",
                 fmt::format("run '{}' is '{}' here and '{}' in shard {}'s manifest", id,
                             string_at(r, "status").value_or("?"),
                             string_at(listed, "status").value_or("?"), shard));
  }
  const Json* host = member(r, "host");
  for (const char* key : {"hostname", "boot_id"}) {
    const auto here = host ? string_at(*host, key) : std::nullopt;
    if (here != string_at(c.host, key)) {
      findings.add(
          "merge.record_mismatch", "manifest.json", at + "/host/" + key,
          fmt::format("run '{}' is said to have run on {} {}, shard {}'s manifest says {}", id, key,
                      here.value_or("(none)"), shard, string_at(c.host, key).value_or("(none)")));
    }
  }
}

// The run's bytes against the shard's sums, both ways.
void check_run_bytes(const BundleView& bundle, const std::string& id, std::uint64_t shard,
                     const ShardCopy& c, Findings& findings) {
  const std::string prefix = "runs/" + id + "/";
  std::set<std::string> present;
  for (const std::string& file : run_files(bundle.root, id)) {
    present.insert(file);
    const auto want = c.sums.find(file);
    const auto got = file_sha256(bundle.root + "/" + file);
    if (want == c.sums.end()) {
      findings.add("merge.run_altered", file, "",
                   fmt::format("shard {}'s SHA256SUMS does not list this file", shard));
    } else if (got && *got != want->second) {
      findings.add(
          "merge.run_altered", file, "",
          fmt::format("hashes to {}, shard {}'s SHA256SUMS says {}", *got, shard, want->second));
    }
  }
  for (auto it = c.sums.lower_bound(prefix); it != c.sums.end() && it->first.starts_with(prefix);
       ++it) {
    if (!present.count(it->first)) {
      findings.add("merge.run_altered", it->first, "",
                   fmt::format("shard {} wrote this file; the merged bundle lacks it", shard));
    }
  }
}

}  // namespace

void check_merge(const BundleView& bundle, Findings& findings) {
  if (!bundle.manifest) return;
  const Json* merge = member(*bundle.manifest, "merge");
  if (!merge) return;
  const Json* shards = member(*merge, "shards");
  if (!shards || !shards->is_array()) return;  // the schema check reports it
  const std::map<std::uint64_t, ShardCopy> copies = shard_copies(bundle, *shards, findings);

  std::map<std::uint64_t, std::set<std::string>> merged_of_shard;
  const Json* runs = member(*bundle.manifest, "runs");
  for (std::size_t i = 0; runs && runs->is_array() && i < runs->size(); ++i) {
    const Json& r = (*runs)[i];
    const auto id = string_at(r, "id");
    const auto shard = u64_at(r, "shard");
    const std::string at = fmt::format("/runs/{}", i);
    if (!id) continue;
    auto copy = shard ? copies.find(*shard) : copies.end();
    if (copy == copies.end()) {
      findings.add("merge.record_mismatch", "manifest.json", at + "/shard",
                   fmt::format("run '{}' names no shard the merge kept", *id));
      continue;
    }
    merged_of_shard[*shard].insert(*id);
    const ShardCopy& c = copy->second;
    const auto listed = c.runs.find(*id);
    if (listed == c.runs.end()) {
      findings.add("merge.run_not_in_shard", "manifest.json", at,
                   fmt::format("run '{}' is not a run of shard {}'s manifest", *id, *shard));
      continue;
    }
    check_run_entry(*id, *shard, r, listed->second, c, at, findings);
    check_run_bytes(bundle, *id, *shard, c, findings);
  }
  for (const auto& [index, c] : copies) {
    for (const auto& [id, entry] : c.runs) {
      if (!merged_of_shard[index].count(id)) {
        findings.add("merge.run_dropped", "shards/" + std::to_string(index) + "/manifest.json", "",
                     fmt::format("shard {}'s run '{}' is not in the merged bundle", index, id));
      }
    }
  }
}

}  // namespace jbench::validate
