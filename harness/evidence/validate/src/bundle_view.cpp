// Reading a bundle's documents once, for every check: existence, size, JSON syntax, schema.
#include "bundle_view.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "jbench/common/parallel.h"
#include "jbench/schema/json_schema.h"

namespace jbench::validate {
namespace {

namespace fs = std::filesystem;

// A bundle is untrusted input: a document larger than any jbench writes is refused unread
// rather than parsed into memory.
constexpr std::uintmax_t kMaxDocumentBytes = 64u << 20;

class SchemaCache {
 public:
  // The schema, or why it cannot be had (kept: every document of the kind is told the same).
  const Result<JsonSchema>& get(const std::string& name) {
    auto it = schemas_.find(name);
    if (it == schemas_.end()) it = schemas_.emplace(name, JsonSchema::builtin(name)).first;
    return it->second;
  }

 private:
  std::map<std::string, Result<JsonSchema>> schemas_;
};

std::optional<Json> load_json(const std::string& root, const std::string& file,
                              Findings& findings) {
  const auto text = read_document(root, file, findings);
  if (!text) return std::nullopt;
  try {
    return Json::parse(*text);
  } catch (const Json::parse_error& e) {
    findings.add("document.not_json", file, "", e.what());
  }
  return std::nullopt;
}

// schema.<kind> for every violation, with its pointer.
void check_schema(const Json& doc, const std::string& file, const std::string& kind,
                  SchemaCache& schemas, Findings& findings) {
  const auto& schema = schemas.get(kind + ".schema.json");
  if (!schema) {
    findings.add("schema." + kind, file, "",
                 "the schema cannot be loaded: " + schema.error().message);
    return;
  }
  for (const auto& v : schema->validate(doc)) {
    findings.add("schema." + kind, file, v.pointer, v.message);
  }
}

std::optional<Json> load_checked(const std::string& root, const std::string& file,
                                 const std::string& kind, SchemaCache& schemas,
                                 Findings& findings) {
  auto doc = load_json(root, file, findings);
  if (doc) check_schema(*doc, file, kind, schemas, findings);
  return doc;
}

std::vector<std::string> subdirectories(const std::string& path) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(path, ec)) {
    if (e.is_directory(ec) && !e.is_symlink(ec)) names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// "worker-<i>.result.json" -> i; anything else is not a worker result.
std::optional<std::size_t> worker_index(const std::string& name) {
  constexpr std::string_view prefix = "worker-", suffix = ".result.json";
  if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) ||
      !name.ends_with(suffix)) {
    return std::nullopt;
  }
  const std::string_view digits(name.data() + prefix.size(),
                                name.size() - prefix.size() - suffix.size());
  std::size_t index = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  if (digits.size() > 1 && digits[0] == '0') return std::nullopt;
  return index;
}

// An ok run has a result from every worker, numbered 0..n-1; a run that failed may lack some
// (`gaps_allowed`), and each file is named by the worker that sent it.
std::optional<std::vector<Json>> load_results(const std::string& root, const std::string& dir,
                                              bool gaps_allowed, SchemaCache& schemas,
                                              Findings& findings) {
  std::vector<std::size_t> indexes;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root + "/" + dir + "/raw", ec)) {
    if (auto i = worker_index(e.path().filename().string())) indexes.push_back(*i);
  }
  std::sort(indexes.begin(), indexes.end());
  for (std::size_t k = 0; k < indexes.size() && !gaps_allowed; ++k) {
    if (indexes[k] != k) {
      // The summary is over workers 0..n-1: a gap means a result was lost or one was added.
      findings.add("raw.numbering", dir + "/raw", "",
                   fmt::format("worker results are not numbered 0..{}: found worker-{} where "
                               "worker-{} was expected",
                               indexes.size() - 1, indexes[k], k));
      return std::nullopt;
    }
  }
  std::vector<Json> results;
  bool usable = true;
  for (std::size_t i : indexes) {
    const std::string file = fmt::format("{}/raw/worker-{}.result.json", dir, i);
    auto doc = load_checked(root, file, "worker-result", schemas, findings);
    const Json* index = doc && doc->is_object() ? member(*doc, "worker_index") : nullptr;
    if (index && index->is_number_unsigned() && index->get<std::size_t>() != i) {
      findings.add("raw.numbering", file, "/worker_index",
                   fmt::format("the file of worker {} holds the result of worker {}", i,
                               index->get<std::size_t>()));
      doc.reset();
    }
    if (doc) results.push_back(std::move(*doc));
    usable = usable && doc.has_value();
  }
  if (!usable) return std::nullopt;
  return results;
}

// The raw documents of a run besides the worker results: which collector names each, under
// which key, where jbench writes it, and its schema.
struct RawDocument {
  const char* collector;
  const char* key;
  const char* file;
  const char* kind;
};
constexpr RawDocument kRawDocuments[] = {
    {"cpu", "readings", "raw/cpu.readings.json", "cpu-readings"},
    {"syscall", "summary_file", "raw/syscall.summary.json", "syscall-summary"},
};

// A raw document a collector names must be there; one that is there is held to its schema
// whether a collector names it or not (the summaries read it from its place).
void load_raw_documents(const std::string& root, const RunView& r, SchemaCache& schemas,
                        Findings& findings) {
  const Json* collectors = nullptr;
  if (r.run) {
    if (const Json* mode = member(*r.run, "trace_mode")) collectors = member(*mode, "collectors");
  }
  for (const auto& doc : kRawDocuments) {
    bool named = false;
    if (collectors && collectors->is_array()) {
      for (std::size_t i = 0; i < collectors->size(); ++i) {
        const Json& c = (*collectors)[i];
        if (string_at(c, "name") != doc.collector || !member(c, doc.key)) continue;
        named = true;
        if (string_at(c, doc.key) != doc.file) {
          findings.add("raw.unexpected_path", r.dir + "/run.json",
                       fmt::format("/trace_mode/collectors/{}/{}", i, doc.key),
                       fmt::format("collector {} names {} where jbench keeps it at {}",
                                   doc.collector, member(c, doc.key)->dump(), doc.file));
        }
      }
    }
    const std::string file = r.dir + "/" + doc.file;
    std::error_code absent;
    if (named || fs::exists(root + "/" + file, absent)) {
      load_checked(root, file, doc.kind, schemas, findings);
    }
  }
}

}  // namespace

std::optional<std::string> read_document(const std::string& root, const std::string& file,
                                         Findings& findings) {
  const std::string path = root + "/" + file;
  struct stat st {};
  // lstat: a symlink is never followed out of the bundle (the sums check reports it).
  if (lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    findings.add("document.missing", file, "", "the bundle has no regular file " + file);
    return std::nullopt;
  }
  if (static_cast<std::uintmax_t>(st.st_size) > kMaxDocumentBytes) {
    findings.add("document.too_large", file, "",
                 fmt::format("{} bytes, more than the {} bytes a jbench document may have",
                             st.st_size, kMaxDocumentBytes));
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    findings.add("document.unreadable", file, "", "cannot read " + path);
    return std::nullopt;
  }
  return text.str();
}

bool safe_relative(const std::string& path) {
  if (path.empty() || path.front() == '/') return false;
  for (const auto& part : fs::path(path)) {
    if (part == ".." || part == ".") return false;
  }
  return true;
}

std::optional<Json> load_plain_json(const std::string& root, const std::string& file,
                                    Findings& findings) {
  return load_json(root, file, findings);
}

std::optional<Json> load_schema_checked(const std::string& root, const std::string& file,
                                        const std::string& kind, Findings& findings) {
  SchemaCache schemas;
  return load_checked(root, file, kind, schemas, findings);
}

void for_each_run(const BundleView& bundle, Findings& findings,
                  const std::function<void(const RunView&, Findings&)>& check) {
  std::vector<std::vector<Finding>> found(bundle.runs.size());
  std::vector<std::exception_ptr> thrown(bundle.runs.size());
  parallel_for(bundle.runs.size(), reading_threads(), [&](std::size_t i) {
    Findings mine(found[i]);
    try {
      check(bundle.runs[i], mine);
    } catch (...) {
      thrown[i] = std::current_exception();
    }
  });
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (thrown[i]) std::rethrow_exception(thrown[i]);
    for (auto& f : found[i]) {
      findings.add(std::move(f.code), std::move(f.file), std::move(f.pointer),
                   std::move(f.message));
    }
  }
}

BundleView load_bundle(const std::string& root, bool staged, Findings& findings) {
  SchemaCache schemas;
  BundleView b;
  b.root = root;
  b.manifest = load_checked(root, "manifest.json", "manifest", schemas, findings);
  b.plan = load_checked(root, "plan.json", "plan", schemas, findings);
  load_checked(root, "provenance/build.json", "build-info", schemas, findings);
  load_checked(root, "capabilities.json", "capabilities", schemas, findings);
  b.provenance_index =
      load_checked(root, "provenance/index.json", "provenance-index", schemas, findings);
  // validation.json has no schema of its own yet: it is read for its verdict only.
  if (!staged) b.validation = load_json(root, "validation.json", findings);
  for (const auto& id : subdirectories(root + "/runs")) {
    RunView r;
    r.id = id;
    r.dir = "runs/" + id;
    r.run = load_checked(root, r.dir + "/run.json", "run", schemas, findings);
    r.summary = load_checked(root, r.dir + "/summary.json", "summary", schemas, findings);
    const bool ok = r.run && r.run->is_object() && r.run->value("status", "") == "ok";
    r.results = load_results(root, r.dir, !ok, schemas, findings);
    load_raw_documents(root, r, schemas, findings);
    b.runs.push_back(std::move(r));
  }
  return b;
}

const Json* member(const Json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::optional<std::string> string_at(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  if (!v || !v->is_string()) return std::nullopt;
  return v->get<std::string>();
}

std::optional<std::uint64_t> u64_at(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  if (!v) return std::nullopt;
  if (v->is_number_unsigned()) return v->get<std::uint64_t>();
  if (v->is_number_integer()) {
    const auto i = v->get<std::int64_t>();
    if (i >= 0) return static_cast<std::uint64_t>(i);
    return std::nullopt;
  }
  if (!v->is_string()) return std::nullopt;
  const auto& s = v->get_ref<const std::string&>();
  std::uint64_t out = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return out;
}

std::map<std::string, ListedEntry> entries_by_id(const Json& doc, const std::string& file,
                                                 const char* list, Findings* findings) {
  std::map<std::string, ListedEntry> out;
  const Json* entries = member(doc, list);
  for (std::size_t i = 0; entries && entries->is_array() && i < entries->size(); ++i) {
    const Json& entry = (*entries)[i];
    const auto id = string_at(entry, "id");
    if (!id) continue;
    const std::string pointer = fmt::format("/{}/{}", list, i);
    if (!out.emplace(*id, ListedEntry{i, pointer, &entry}).second && findings) {
      findings->add("runs.duplicate_id", file, pointer + "/id",
                    fmt::format("run id '{}' is listed twice", *id));
    }
  }
  return out;
}

}  // namespace jbench::validate
