#include "bundle_input.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "jbench/bundle/json_file.h"

namespace jbench::exports {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

std::optional<RunInput> read_run(const std::string& bundle, const std::string& id,
                                 std::string& error) {
  RunInput r;
  r.id = id;
  r.dir = bundle + "/runs/" + id;
  const std::string path = r.dir + "/run.json";
  const auto run = read_json_object(path, error);
  if (!run) return std::nullopt;
  const auto cohort = run->find("cohort");
  if (cohort != run->end() && cohort->is_object() && cohort->contains("members")) {
    for (const Json& m : (*cohort)["members"]) {
      Incarnation inc;
      inc.pid = m.value("pid", std::int64_t{0});
      inc.parent_pid = m.value("ppid", std::int64_t{0});
      inc.start_time_ticks = decimal_at(m, "start_time_ticks").value_or(0);
      if (m.contains("worker") && m["worker"].is_number_unsigned()) {
        inc.worker = m["worker"].get<std::size_t>();
      }
      r.cohort.push_back(inc);
    }
  }
  const auto bounds = run->find("boundaries");
  if (bounds != run->end() && bounds->is_object()) {
    for (auto it = bounds->begin(); it != bounds->end(); ++it) {
      const auto ns = decimal_value(it.value());
      if (!ns) continue;  // a boundary the run never reached is not written as a time
      std::string key = it.key();
      if (key.ends_with("_ns")) key.resize(key.size() - 3);
      r.boundaries.emplace_back(std::move(key), *ns);
    }
    std::sort(r.boundaries.begin(), r.boundaries.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
  }
  // The raw files are the collectors' entries' own `raw` (docs/events.md), never a guess from
  // the directory: a file no entry names is not evidence of this run.
  const auto mode = run->find("trace_mode");
  if (mode != run->end() && mode->is_object() && mode->contains("collectors")) {
    for (const Json& c : (*mode)["collectors"]) {
      if (!c.is_object() || !c.contains("raw")) continue;
      const std::string name = c.value("name", "");
      const Json& raw = c["raw"];
      for (const Json& f : raw.is_string() ? Json::array({raw}) : raw) {
        if (f.is_string()) r.raw_files.push_back(r.dir + "/" + f.get<std::string>());
      }
      std::optional<std::uint64_t> records;
      if (const auto n = c.find("records"); n != c.end() && n->is_number_unsigned()) {
        records = n->get<std::uint64_t>();
      }
      if (name == "bridge" && (raw.is_array() || raw.is_string())) {
        // One file a worker: a list, or (one worker) the file itself, as the validator reads it.
        for (const Json& f : raw.is_string() ? Json::array({raw}) : raw) {
          if (f.is_string()) r.bridge_files.push_back(r.dir + "/" + f.get<std::string>());
        }
        r.bridge_records = records;
      } else if (name == "syscall" && raw.is_string()) {
        r.syscall_file = r.dir + "/" + raw.get<std::string>();
        r.syscall_records = records;
      }
    }
  }
  return r;
}

}  // namespace

BundleInput read_bundle_input(const std::string& dir, const std::optional<std::string>& only_run) {
  BundleInput out;
  const auto manifest = read_json_object(dir + "/manifest.json", out.error);
  if (!manifest) return out;
  out.status = manifest->value("status", "");
  const auto runs = manifest->find("runs");
  if (runs == manifest->end() || !runs->is_array()) {
    out.error = fmt::format("{}/manifest.json has no list of runs", dir);
    return out;
  }
  std::vector<std::string> known;
  for (const Json& entry : *runs) {
    const std::string id = entry.value("id", "");
    known.push_back(id);
    if (only_run && id != *only_run) continue;
    if (entry.value("status", "") == "not_run") {
      if (only_run) {
        out.error =
            fmt::format("run '{}' did not run in {} (status not_run): nothing to export", id, dir);
        return out;
      }
      continue;
    }
    auto run = read_run(dir, id, out.error);
    if (!run) return out;
    out.runs.push_back(std::move(*run));
  }
  if (only_run && out.runs.empty()) {
    out.error = fmt::format("no run '{}' in {}/manifest.json; its runs are: {}", *only_run, dir,
                            fmt::join(known, ", "));
  }
  return out;
}

}  // namespace jbench::exports
