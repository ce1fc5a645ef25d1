#include "jbench/provenance/retained.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <optional>

#include "jbench/common/path_search.h"
#include "jbench/common/sha256.h"
#include "jbench/events/line_reader.h"
#include "jbench/provenance/binaries.h"
#include "jbench/provenance/elf_symbols.h"
#include "object_store.h"

namespace jbench {
namespace {

using Json = nlohmann::json;
using provenance_detail::ObjectStore;

// A raw file's header line is a few hundred bytes; a longer one is not a header to read.
constexpr std::size_t kMaxHeaderBytes = 64 * 1024;

// An object a run offers the store; offered in `priority` order once the run's binaries are
// described, so that the cap keeps what serves most per byte (symbol maps) first.
struct Candidate {
  int priority = 0;  // 0 symbol map, 1 binary, 2 debug file
  std::string kind;
  std::string path;
  std::string read_path;
  std::string sha256;
  std::uint64_t size = 0;
  std::optional<std::string> bytes;  // for made objects; files are read when stored
};

std::optional<std::string> string_of(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

// The symbol map of a binary: its own .symtab; else its debug file's .symtab; else its .dynsym.
Json symbol_map(const std::string& path, const std::string& read_path,
                const std::optional<std::string>& debug_file, std::vector<Candidate>& out) {
  SymbolMap map = read_symbol_map(read_path.empty() ? path : read_path);
  std::string from = "binary";
  if (map.table != ".symtab" && debug_file) {
    SymbolMap debug = read_symbol_map(*debug_file);
    if (debug.table == ".symtab" && debug.error.empty()) {
      map = std::move(debug);
      from = "debug_file";
    }
  }
  if (map.table.empty()) {
    return map.error.empty() ? Json(nullptr) : Json({{"error", map.error}});
  }
  std::string text = symbol_map_text(map);
  const std::string digest = sha256_hex(text);
  Json j = {{"sha256", digest},
            {"table", map.table},
            {"from", from},
            {"symbols", map.symbols.size()},
            {"size_bytes", text.size()}};
  if (!map.error.empty()) j["error"] = map.error;
  out.push_back({0, "symbol_map", path, "", digest, text.size(), std::move(text)});
  return j;
}

}  // namespace

struct RetainedProvenance::State {
  State(StagingBundle& bundle, std::uint64_t cap) : store(bundle, cap) {}
  ObjectStore store;
  Json configuration = {{"matrix_sha256", nullptr}, {"plan_sha256", nullptr}};
  // What a binary adds to its description (symbol map, debug file), by the binary's digest:
  // made once per distinct file in the session.
  std::map<std::string, Json> extras;
  std::map<std::string, std::string> set_ids;  // a set's JSON text -> its id
  Json sets = Json::array();
  std::map<std::string, Json> runs;
  std::vector<std::string> run_order;

  Json& run(const std::string& id) {
    if (!runs.count(id)) {
      run_order.push_back(id);
      runs[id] = {{"id", id},
                  {"processes", Json::array()},
                  {"tracer", nullptr},
                  {"worker_configuration", Json::array()}};
    }
    return runs[id];
  }

  // Adds the store references to one described binary and queues its objects.
  void retain(Json& d, const std::string& read_path, std::vector<Candidate>& out) {
    const auto digest = string_of(d, "sha256");
    const auto path = string_of(d, "path");
    if (!digest || !path || d.contains("error"))
      return;  // described with an error: nothing to keep
    const std::uint64_t size = d.value("size_bytes", std::uint64_t{0});
    out.push_back({1, "binary", *path, read_path, *digest, size, std::nullopt});
    auto known = extras.find(*digest);
    if (known == extras.end()) {
      Json extra;
      Json debug = nullptr;
      const auto debug_path = string_of(d, "separate_debug_file");
      if (debug_path) {
        Json dd = describe_binary(*debug_path);
        if (auto ds = string_of(dd, "sha256"); ds && !dd.contains("error")) {
          const std::uint64_t dsize = dd.value("size_bytes", std::uint64_t{0});
          debug = {{"path", *debug_path},
                   {"sha256", *ds},
                   {"size_bytes", dsize},
                   {"build_id", dd["build_id"]},
                   {"via", d["separate_debug_via"]}};
        } else {
          debug = {{"path", *debug_path}, {"error", dd.value("error", "not readable")}};
        }
      }
      extra["debug_file"] = debug;
      const bool elf = d.value("is_elf", false);
      extra["symbol_map"] = elf ? symbol_map(*path, read_path, debug_path, out) : Json(nullptr);
      known = extras.emplace(*digest, std::move(extra)).first;
    } else if (const Json& m = known->second["symbol_map"]; m.is_object() && m.contains("sha256")) {
      out.push_back({0, "symbol_map", *path, "", m["sha256"], m["size_bytes"], std::string()});
    }
    const Json& debug = known->second["debug_file"];
    if (debug.is_object() && debug.contains("sha256")) {
      out.push_back(
          {2, "debug_file", debug["path"], "", debug["sha256"], debug["size_bytes"], std::nullopt});
    }
    for (const auto& [k, v] : known->second.items()) d[k] = v;
  }

  void offer(std::vector<Candidate>& candidates) {
    std::stable_sort(
        candidates.begin(), candidates.end(),
        [](const Candidate& a, const Candidate& b) { return a.priority < b.priority; });
    for (auto& c : candidates) {
      if (store.known(c.sha256)) {
        store.name(c.sha256, c.path);
      } else if (c.bytes) {
        store.add_bytes(c.kind, c.path, c.sha256, *c.bytes);
      } else {
        store.add_file(c.kind, c.path, c.read_path, c.sha256, c.size);
      }
    }
  }

  std::string set_id(const Json& binaries) {
    const std::string key = binaries.dump();
    auto it = set_ids.find(key);
    if (it != set_ids.end()) return it->second;
    const std::string id = fmt::format("set-{}", sets.size() + 1);
    set_ids.emplace(key, id);
    sets.push_back({{"id", id}, {"binaries", binaries}});
    return id;
  }
};

RetainedProvenance::RetainedProvenance(StagingBundle& bundle, std::uint64_t cap_bytes)
    : state_(std::make_unique<State>(bundle, cap_bytes)) {}
RetainedProvenance::~RetainedProvenance() = default;

void RetainedProvenance::configuration(std::string_view matrix_text, std::string_view plan_text) {
  state_->configuration = {{"matrix_sha256", sha256_hex(matrix_text)},
                           {"plan_sha256", sha256_hex(plan_text)}};
}

void RetainedProvenance::run_processes(const std::string& run_id,
                                       const std::vector<pid_t>& workers) {
  std::vector<Candidate> candidates;
  Json& processes = state_->run(run_id)["processes"];
  std::map<std::string, std::size_t> group_of;  // set id -> index in processes
  for (std::size_t w = 0; w < workers.size(); ++w) {
    Json binaries = Json::array();
    // The kernel lists mappings in address order, which ASLR shuffles: a worker's set is its exe,
    // then its libraries by path, so workers that ran the same files share one set.
    auto found = process_binaries(workers[w]);
    if (found.size() > 1) {
      std::stable_sort(found.begin() + 1, found.end(), [](const auto& a, const auto& b) {
        return a.description.value("path", "") < b.description.value("path", "");
      });
    }
    for (auto& b : found) {
      state_->retain(b.description, b.read_path, candidates);
      binaries.push_back(std::move(b.description));
    }
    const std::string id = state_->set_id(binaries);
    if (auto g = group_of.find(id); g != group_of.end()) {
      processes[g->second]["workers"].push_back(w);
    } else {
      group_of[id] = processes.size();
      processes.push_back({{"workers", Json::array({w})}, {"set", id}});
    }
  }
  state_->offer(candidates);
}

std::vector<StoredOnce> RetainedProvenance::run_finished(const std::string& run_id,
                                                         const Json& run_doc,
                                                         const std::string& run_dir,
                                                         std::string_view transcript) {
  Json& run = state_->run(run_id);
  run["worker_configuration"] = configure_message_hashes(transcript);
  const Json* collectors = nullptr;
  if (run_doc.contains("trace_mode") && run_doc["trace_mode"].is_object() &&
      run_doc["trace_mode"].contains("collectors")) {
    collectors = &run_doc["trace_mode"]["collectors"];
  }
  if (!collectors || !collectors->is_array()) return {};
  std::vector<StoredOnce> stored_once;
  for (const auto& c : *collectors) {
    if (c.value("name", "") != "syscall") continue;
    const std::string backend = c.value("backend", "");
    if (backend != "bpftrace" && backend != "strace" && backend != "libbpf") return {};  // none ran
    // bpftrace and strace are tools on PATH; the compiled tracer is the BPF object the run kept
    // beside its records (it is built into jbench).
    std::string path;       // as the index names it
    std::string read_path;  // where it is read now, when that differs
    std::string in_run;     // the object's name inside the run directory (libbpf)
    if (backend == "libbpf") {
      // Named inside the bundle (the run directory is still the staging one here).
      for (const auto& f : c.value("backend_raw", Json::array())) {
        if (f.is_string() && f.get<std::string>().ends_with(".bpf.o")) {
          in_run = f.get<std::string>();
          path = "runs/" + run_id + "/" + in_run;
          read_path = run_dir + "/" + in_run;
        }
      }
    } else {
      path = find_on_path(backend);
    }
    Json tracer = {{"name", backend}, {"path", path.empty() ? Json(nullptr) : Json(path)}};
    // The version the collector read from the tool itself (--version / -V) when it attached.
    tracer["version"] = nullptr;
    if (const auto raw = string_of(c, "raw")) {
      // The raw file's header, read as every reader reads it (the file may be compressed).
      events::for_each_line(
          run_dir + "/" + *raw, kMaxHeaderBytes,
          [&](std::size_t, std::string_view header) {
            const Json h = Json::parse(header, nullptr, false);
            if (h.is_object() && h.contains("backend_version"))
              tracer["version"] = h["backend_version"];
            return false;  // the first line only
          },
          [](std::size_t) {});
    }
    if (path.empty()) {
      tracer["error"] = backend == "libbpf" ? "the run kept no object of the compiled tracer"
                                            : backend + " is no longer found on PATH";
    } else {
      Json d = describe_binary(read_path.empty() ? path : read_path);
      d["path"] = path;
      d["role"] = "tracer";
      d["deleted"] = false;
      std::vector<Candidate> candidates;
      state_->retain(d, read_path, candidates);
      state_->offer(candidates);
      const auto digest = string_of(d, "sha256");
      if (!in_run.empty() && digest && state_->store.stored(*digest)) {
        stored_once.push_back(
            {in_run, fmt::format("{}/{}", provenance_detail::kObjectsDir, *digest)});
      }
      tracer["binary"] = std::move(d);
    }
    run["tracer"] = std::move(tracer);
    return stored_once;
  }
  return stored_once;
}

Json RetainedProvenance::index() const {
  Json j = {{"schema", "jbench.provenance_index"}, {"schema_version", 1}};
  const Json store = state_->store.to_json();  // named: items() of a temporary would dangle
  for (const auto& [k, v] : store.items()) j[k] = v;
  j["configuration"] = state_->configuration;
  j["binary_sets"] = state_->sets;
  Json runs = Json::array();
  for (const auto& id : state_->run_order) runs.push_back(state_->runs.at(id));
  j["runs"] = std::move(runs);
  return j;
}

Json configure_message_hashes(std::string_view transcript) {
  std::vector<std::pair<std::uint64_t, std::string>> found;
  std::size_t start = 0;
  while (start < transcript.size()) {
    auto end = transcript.find('\n', start);
    if (end == std::string_view::npos) end = transcript.size();
    const Json entry = Json::parse(transcript.substr(start, end - start), nullptr, false);
    start = end + 1;
    // A damaged transcript is the validator's to report (protocol.*); here it only must not throw.
    if (!entry.is_object() || string_of(entry, "dir") != std::optional<std::string>("out"))
      continue;
    const auto line = string_of(entry, "line");
    const auto worker = entry.find("worker");
    if (!line || worker == entry.end() || !worker->is_number_unsigned()) continue;
    const Json message = Json::parse(*line, nullptr, false);
    if (message.is_object() &&
        string_of(message, "type") == std::optional<std::string>("configure")) {
      found.emplace_back(worker->get<std::uint64_t>(), sha256_hex(*line));
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  Json out = Json::array();
  for (const auto& [w, digest] : found) out.push_back({{"worker", w}, {"sha256", digest}});
  return out;
}

}  // namespace jbench
