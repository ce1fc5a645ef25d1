#include "jbench/merge/merged_documents.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "jbench/plan/plan_output.h"
#include "jbench/run_summaries/execution.h"
#include "json_at.h"

namespace jbench::merge {
namespace {

using Json = nlohmann::json;

constexpr const char* kDiffers = "differs by shard: see /merge/shards";

// What every shard's value agrees on; a member that differs is named as such, member by member
// inside objects (a host's kernel release may agree where its version string does not).
Json common_part(const std::vector<Json>& values) {
  const Json& first = values.front();
  if (std::all_of(values.begin(), values.end(), [&](const Json& v) { return v == first; })) {
    return first;
  }
  const bool objects =
      std::all_of(values.begin(), values.end(), [](const Json& v) { return v.is_object(); });
  if (!objects) return kDiffers;
  Json out = Json::object();
  for (const auto& [key, unused] : first.items()) {
    std::vector<Json> members;
    for (const Json& v : values) members.push_back(v.value(key, Json()));
    out[key] = common_part(members);
  }
  return out;
}

// A mode is `available` in the merge only if it was on every shard's host; otherwise the first
// shard's entry that says why not, naming the shard.
Json merged_trace_modes(const std::vector<ShardFacts>& shards, const MergePlan& plan) {
  Json out = at(shards.front().manifest, "/trace_modes");
  if (!out.is_object()) return Json::object();
  for (auto& [mode, entry] : out.items()) {
    for (std::size_t s = 0; s < shards.size(); ++s) {
      const Json theirs = at(shards[s].manifest, "/trace_modes").value(mode, Json());
      if (!theirs.is_object() || theirs.value("status", "") == entry.value("status", "")) continue;
      if (entry.value("status", "") == "not_available") continue;
      if (theirs.value("status", "") == "not_requested") continue;
      entry = theirs;
      entry["reason"] = fmt::format("on shard {}/{}: {}", plan.specs[s].index, plan.specs[s].count,
                                    theirs.value("reason", "it was not available"));
    }
  }
  return out;
}

// Every dataset once, by name, as the first shard that built it reported it.
Json merged_datasets(const std::vector<ShardFacts>& shards) {
  Json out = Json::array();
  std::set<std::string> seen;
  for (const ShardFacts& s : shards) {
    const Json list = at(s.manifest, "/datasets");
    if (!list.is_array()) continue;
    for (const Json& d : list) {
      if (d.is_object() && seen.insert(d.value("name", "")).second) out.push_back(d);
    }
  }
  return out;
}

Json run_entry_of(const ShardFacts& shard, const std::string& id) {
  const Json runs = at(shard.manifest, "/runs");
  for (const Json& r : runs) {
    if (r.is_object() && r.value("id", "") == id) return r;
  }
  return Json();  // check_shards proved every run is listed; never reached for a checked plan
}

}  // namespace

Json merged_manifest(const std::vector<ShardFacts>& shards, const MergePlan& plan,
                     const MergeContext& context) {
  const Json& ref = shards.front().manifest;
  const Plan& whole = plan.whole;
  std::vector<Json> hosts;
  for (const ShardFacts& s : shards) hosts.push_back(at(s.manifest, "/host"));

  Json runs = Json::array();
  Json counts = {{"ok", 0}, {"failed", 0}, {"timeout", 0}, {"interrupted", 0}, {"not_run", 0}};
  for (std::size_t i = 0; i < whole.runs.size(); ++i) {
    const std::size_t s = plan.shard_of_run[i];
    Json entry = run_entry_of(shards[s], plan.run_ids[i]);
    entry["order"] = i;
    entry["block"] = whole.runs[i].block;
    entry["shard"] = plan.specs[s].index;
    entry["host"] = {{"hostname", at(hosts[s], "/hostname")},
                     {"boot_id", at(hosts[s], "/boot_id")}};
    const std::string status = entry.value("status", "");
    if (counts.contains(status)) counts[status] = counts[status].get<int>() + 1;
    runs.push_back(std::move(entry));
  }

  Json record_shards = Json::array();
  std::string started = text_at(ref, "/started_utc"), ended = text_at(ref, "/ended_utc");
  for (std::size_t s = 0; s < shards.size(); ++s) {
    const Json& m = shards[s].manifest;
    started = std::min(started, text_at(m, "/started_utc"));
    ended = std::max(ended, text_at(m, "/ended_utc"));
    const Json listed = at(m, "/runs");
    record_shards.push_back(
        {{"index", plan.specs[s].index},
         {"count", plan.specs[s].count},
         {"source", shards[s].source},
         {"bundle", at(m, "/bundle")},
         {"copy", fmt::format("shards/{}", plan.specs[s].index)},
         {"sums_sha256", s < context.shard_sums_sha256.size() ? context.shard_sums_sha256[s] : ""},
         {"status", at(m, "/status")},
         {"started_utc", at(m, "/started_utc")},
         {"ended_utc", at(m, "/ended_utc")},
         {"jbench", at(m, "/jbench")},
         {"host", hosts[s]},
         {"runs", listed.is_array() ? listed.size() : 0}});
  }
  std::sort(record_shards.begin(), record_shards.end(),
            [](const Json& a, const Json& b) { return a["index"] < b["index"]; });
  std::set<std::pair<std::string, std::string>> distinct_hosts;
  for (const Json& h : hosts)
    distinct_hosts.emplace(text_at(h, "/hostname"), text_at(h, "/boot_id"));

  Json manifest = ref;
  manifest["bundle"] = context.bundle_name;
  manifest["status"] = "complete";
  manifest["jbench"] = context.jbench;
  manifest["started_utc"] = started;
  manifest["ended_utc"] = ended;
  // Monotonic clocks of different hosts (or boots) do not compare: the shards' own are in
  // their copies under shards/.
  manifest["started_ns"] = "0";
  manifest["ended_ns"] = "0";
  manifest["host"] = common_part(hosts);
  manifest["trace_modes"] = merged_trace_modes(shards, plan);
  manifest["plan"] = {
      {"file", "plan.json"},
      {"host", {{"cores", whole.host.cores}, {"memory_mib", whole.host.memory_mib}}},
      {"counts", plan_counts_to_json(whole)},
      {"shard", nullptr},
      {"filters", plan_filters_to_json(whole)},
      {"axes", plan_axes_to_json(whole)}};
  manifest["datasets"] = merged_datasets(shards);
  manifest["run_counts"] = counts;
  manifest["runs"] = runs;
  manifest["write_failures"] = Json::array();
  manifest["execution"] = {{"axes", execution_states(manifest["plan"]["axes"], runs)}};
  manifest["merge"] = {{"shards", record_shards},
                       {"shard_count", plan.specs.front().count},
                       {"hosts", distinct_hosts.size()},
                       {"merged_utc", context.merged_utc}};
  return manifest;
}

std::map<std::string, std::size_t> stored_object_sources(const std::vector<ShardFacts>& shards) {
  std::map<std::string, std::size_t> out;
  for (std::size_t s = 0; s < shards.size(); ++s) {
    const Json objects = at(shards[s].provenance_index, "/objects");
    if (!objects.is_array()) continue;
    for (const Json& o : objects) {
      if (o.is_object() && o.value("stored", false)) out.emplace(o.value("sha256", ""), s);
    }
  }
  return out;
}

Json merged_provenance_index(const std::vector<ShardFacts>& shards, const MergePlan& plan,
                             const std::string& plan_sha256) {
  const auto stored = stored_object_sources(shards);
  std::map<std::string, Json> objects;  // by sha256
  std::vector<Json> sets;               // distinct binary lists, set-1 .. set-n
  std::map<std::string, Json> runs;     // by run id
  std::uint64_t cap = 0;
  for (std::size_t s = 0; s < shards.size(); ++s) {
    const Json& index = shards[s].provenance_index;
    const Json shard_cap = at(index, "/cap_bytes");
    if (shard_cap.is_number_integer() && shard_cap.get<std::int64_t>() > 0) {
      cap += shard_cap.get<std::uint64_t>();
    }
    for (const Json& o : at(index, "/objects").is_array() ? at(index, "/objects") : Json::array()) {
      const std::string sha = o.value("sha256", "");
      auto [it, fresh] = objects.emplace(sha, o);
      Json& merged = it->second;
      if (stored.count(sha)) {
        merged["stored"] = true;
        merged.erase("left_out");
      }
      if (!fresh && o.value("paths", Json()).is_array()) {
        std::set<std::string> paths(merged["paths"].begin(), merged["paths"].end());
        for (const Json& p : o["paths"]) {
          if (p.is_string() && paths.insert(p.get<std::string>()).second)
            merged["paths"].push_back(p);
        }
      }
    }
    std::map<std::string, std::string> renamed;  // this shard's set id -> the merged one
    for (const Json& set :
         at(index, "/binary_sets").is_array() ? at(index, "/binary_sets") : Json::array()) {
      const Json binaries = set.value("binaries", Json::array());
      auto same = std::find(sets.begin(), sets.end(), binaries);
      if (same == sets.end()) {
        sets.push_back(binaries);
        same = sets.end() - 1;
      }
      renamed[set.value("id", "")] = fmt::format("set-{}", same - sets.begin() + 1);
    }
    for (Json r : at(index, "/runs").is_array() ? at(index, "/runs") : Json::array()) {
      if (r.contains("processes") && r["processes"].is_array()) {
        for (Json& p : r["processes"]) {
          if (p.is_object() && renamed.count(p.value("set", ""))) p["set"] = renamed[p["set"]];
        }
      }
      runs.emplace(r.value("id", ""), std::move(r));
    }
  }
  Json index = {{"schema", "jbench.provenance_index"}, {"schema_version", 1}, {"cap_bytes", cap}};
  std::uint64_t stored_bytes = 0, left_out_bytes = 0;
  Json object_list = Json::array();
  for (auto& [sha, o] : objects) {
    const std::uint64_t size = o.value("size_bytes", std::uint64_t{0});
    (o.value("stored", false) ? stored_bytes : left_out_bytes) += size;
    object_list.push_back(std::move(o));
  }
  index["stored_bytes"] = stored_bytes;
  index["left_out_bytes"] = left_out_bytes;
  index["objects"] = std::move(object_list);
  index["configuration"] = {{"matrix_sha256", at(shards.front().manifest, "/matrix/sha256")},
                            {"plan_sha256", plan_sha256}};
  Json set_list = Json::array();
  for (std::size_t i = 0; i < sets.size(); ++i) {
    set_list.push_back({{"id", fmt::format("set-{}", i + 1)}, {"binaries", sets[i]}});
  }
  index["binary_sets"] = std::move(set_list);
  Json run_list = Json::array();
  for (const std::string& id : plan.run_ids) {
    if (auto it = runs.find(id); it != runs.end()) run_list.push_back(it->second);
  }
  index["runs"] = std::move(run_list);
  return index;
}

}  // namespace jbench::merge
