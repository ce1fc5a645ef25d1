#include "jbench/model/documents.h"

namespace jbench::model {
namespace {

ManifestRun read_manifest_run(Fields f) {
  ManifestRun r;
  r.id = f.text("id");
  r.status = f.word("status", run_status_from_name, RunStatus::not_run);
  r.trace = f.word("trace", trace_mode_from_name, TraceMode::baseline);
  r.seed = f.optional_text("seed").value_or("");
  r.order = f.count("order");
  r.block = f.count("block");
  r.throughput_ops_per_s = f.optional_number("throughput_ops_per_s");
  if (f.has("values")) r.values = f.labels("values");
  r.shard = f.optional_count("shard");
  return r;
}

Incarnation read_incarnation(Fields f) {
  Incarnation m;
  m.pid = f.integer("pid");
  m.ppid = f.has("ppid") ? f.integer("ppid") : 0;
  m.start_time_ticks = f.decimal("start_time_ticks");
  m.worker = f.optional_count("worker");
  m.forked = f.optional_flag("forked").value_or(false);
  m.boot_id = f.optional_text("boot_id").value_or("");
  m.runtime_id = f.optional_text("runtime_id");
  m.registered_ns = f.optional_decimal("registered_ns");
  return m;
}

CollectorEntry read_collector(Fields f) {
  CollectorEntry c;
  c.name = f.text("name");
  if (f.has("status")) {
    c.status = f.word("status", collectors::status_from_word, collectors::Status::collector_failed);
  }
  c.backend = f.optional_text("backend");
  c.version = f.optional_text("version");
  c.reason = f.optional_text("reason");
  c.raw = f.texts("raw");
  c.records = f.optional_count("records");
  c.dropped = f.optional_count("dropped");
  if (auto life = f.optional_object("lifecycle")) {
    c.started_ns = life->optional_decimal("started_ns");
    c.attached_ns = life->optional_decimal("attached_ns");
  }
  c.cpu_sample_hz = f.optional_number("cpu_sample_hz");
  return c;
}

WorkerRecord read_worker(Fields f) {
  WorkerRecord w;
  w.index = f.count("index");
  w.pid = f.integer("pid");
  w.hello_t_ns = f.optional_decimal("hello_t_ns");
  w.ready_t_ns = f.optional_decimal("ready_t_ns");
  w.canary_t_ns = f.optional_decimal("canary_t_ns");
  w.open_ns = f.optional_decimal("open_ns");
  w.measure_start_ns = f.optional_decimal("measure_start_ns");
  w.measure_end_ns = f.optional_decimal("measure_end_ns");
  return w;
}

// Each point of `startup_steps` that holds a time; the names are the harness's, and grow with it.
void read_startup_steps(Fields& f, RunDocument& r) {
  auto steps = f.optional_object("startup_steps");
  if (!steps) return;
  for (const std::string& name : steps->names()) {
    if (const auto ns = steps->optional_decimal(name)) r.startup_steps.emplace_back(name, *ns);
  }
}

// A host fact as the class compares it: its value's text, or, where it could not be read, the
// record of why ({"unavailable": why}, host_fingerprint.h) as JSON text; a host that could not read
// its CPU model is of another class than one that could.
std::optional<std::string> read_fact(Fields& host, std::string_view key, bool count) {
  if (host.holds_object(key)) {
    const auto why = host.object(key).optional_text("unavailable");
    return nlohmann::json{{"unavailable", why.value_or("")}}.dump();
  }
  if (!count) return host.optional_text(key);
  const auto n = host.optional_count(key);
  return n ? std::optional<std::string>(std::to_string(*n)) : std::nullopt;
}

Host read_host(Fields& manifest) {
  Host h;
  auto host = manifest.optional_object("host");
  if (!host) return h;
  h.cpu_model = read_fact(*host, "cpu_model", false);
  h.cpus_usable = read_fact(*host, "cpus_usable", true);
  h.clocksource = read_fact(*host, "clocksource", false);
  if (auto kernel = host->optional_object("kernel")) {
    h.kernel_release = kernel->optional_text("release");
    h.kernel_machine = kernel->optional_text("machine");
  }
  if (!host->holds_object("memory_total_mib")) {
    h.memory_total_mib = host->optional_number("memory_total_mib");
  }
  return h;
}

std::vector<MatrixOverride> read_overrides(Fields& manifest) {
  std::vector<MatrixOverride> out;
  auto matrix = manifest.optional_object("matrix");
  if (!matrix) return out;
  for (Fields o : matrix->optional_items("overrides")) {
    out.push_back({o.text("key"), o.optional_text("file_value").value_or(""), o.text("value"),
                   o.optional_text("by").value_or("")});
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> Host::host_class() const {
  std::map<std::string, std::string> out;
  const auto put = [&out](const char* key, const std::optional<std::string>& value) {
    if (value) out[key] = *value;
  };
  put("host.cpu_model", cpu_model);
  put("host.cpus_usable", cpus_usable);
  put("host.clocksource", clocksource);
  put("host.kernel.release", kernel_release);
  put("host.kernel.machine", kernel_machine);
  return out;
}

Result<Manifest> read_manifest(const nlohmann::json& doc, const std::string& file, FieldLog* log) {
  Fields f(doc, file, log);
  Manifest m;
  m.status = f.text("status");
  for (Fields run : f.items("runs")) m.runs.push_back(read_manifest_run(run));
  m.started_utc = f.optional_text("started_utc").value_or("");
  if (auto jbench = f.optional_object("jbench")) {
    auto source = jbench->optional_object("source");
    m.jbench_revision = source ? source->optional_text("revision").value_or("") : "";
  }
  m.host = read_host(f);
  m.overrides = read_overrides(f);
  if (!f.ok()) return f.error();
  return m;
}

Result<Host> read_manifest_host(const nlohmann::json& manifest, const std::string& file) {
  Fields f(manifest, file);
  Host h = read_host(f);
  if (!f.ok()) return f.error();
  return h;
}

Result<std::vector<MatrixOverride>> read_manifest_overrides(const nlohmann::json& manifest,
                                                            const std::string& file) {
  Fields f(manifest, file);
  auto overrides = read_overrides(f);
  if (!f.ok()) return f.error();
  return overrides;
}

namespace {

// /plan of a manifest: its shard, filters and host.
void read_plan_record(Fields plan, Planning& p) {
  if (auto shard = plan.optional_object("shard")) {
    p.shard = ShardRecord{shard->count("index"), shard->count("count")};
  }
  for (Fields f : plan.optional_items("filters")) {
    p.filters.push_back({f.text("axis"), f.texts("values")});
  }
  if (auto host = plan.optional_object("host")) {
    p.plan_cores = host->optional_count("cores");
    p.plan_memory_mib = host->optional_count("memory_mib");
  }
}

}  // namespace

Result<Planning> read_manifest_planning(const nlohmann::json& manifest, const std::string& file,
                                        FieldLog* log) {
  Fields f(manifest, file, log);
  Planning p;
  p.status = f.text("status");
  p.merged = f.has("merge");
  if (auto plan = f.optional_object("plan")) read_plan_record(std::move(*plan), p);
  if (auto matrix = f.optional_object("matrix")) p.matrix_file = matrix->optional_text("file");
  for (Fields d : f.optional_items("datasets")) {
    const auto name = d.optional_text("name");
    auto report = d.optional_object("build_report");
    const auto content = report ? report->optional_text("content_sha256") : std::nullopt;
    if (name && content) p.dataset_contents[*name] = *content;
  }
  for (Fields run : f.optional_items("runs")) p.run_ids.push_back(run.text("id"));
  if (!f.ok()) return f.error();
  return p;
}

Result<Plan> read_plan(const nlohmann::json& doc, const std::string& file, FieldLog* log) {
  Fields f(doc, file, log);
  Plan p;
  // Every plan jbench writes has all four lists; a hand-made one may give only what it needs.
  for (Fields axis : f.optional_items("axes")) p.axes.push_back(axis.text("axis"));
  for (Fields cell : f.optional_items("cells")) {
    p.cells.push_back(
        {cell.text("id"), cell.has("values") ? cell.scalar_labels("values") : Labels{}});
  }
  for (Fields block : f.optional_items("blocks")) {
    p.blocks.push_back({block.text("point"), block.count("repetition")});
  }
  for (Fields run : f.optional_items("runs")) {
    p.runs.push_back({run.text("id"), run.optional_text("cell"),
                      run.word("trace", trace_mode_from_name, TraceMode::baseline),
                      run.count("block"), run.optional_text("seed").value_or("")});
  }
  if (!f.ok()) return f.error();
  return p;
}

Result<RunDocument> read_run_document(const nlohmann::json& doc, const std::string& file,
                                      FieldLog* log) {
  Fields f(doc, file, log);
  RunDocument r;
  r.id = f.text("id");
  r.status = f.word("status", run_status_from_name, RunStatus::not_run);
  if (f.has("trace")) r.trace = f.word("trace", trace_mode_from_name, TraceMode::baseline);
  if (f.has("values")) r.values = f.labels("values");
  if (auto bounds = f.optional_object("boundaries")) {
    for (std::string_view name : kBoundaryNames) {
      // A boundary the run never reached is absent (or null): not a time.
      if (const auto ns = bounds->optional_decimal(name)) r.boundaries.emplace_back(name, *ns);
    }
  }
  if (auto cohort = f.optional_object("cohort")) {
    for (Fields m : cohort->optional_items("members")) r.cohort.push_back(read_incarnation(m));
  }
  for (Fields w : f.optional_items("workers")) r.workers.push_back(read_worker(w));
  read_startup_steps(f, r);
  if (auto mode = f.optional_object("trace_mode")) {
    for (Fields c : mode->optional_items("collectors")) r.collectors.push_back(read_collector(c));
  }
  if (!f.ok()) return f.error();
  return r;
}

std::optional<std::uint64_t> RunDocument::boundary(std::string_view name) const {
  for (const auto& [n, ns] : boundaries) {
    if (n == name) return ns;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> RunDocument::startup_step(std::string_view name) const {
  for (const auto& [n, ns] : startup_steps) {
    if (n == name) return ns;
  }
  return std::nullopt;
}

const WorkerRecord* RunDocument::worker(std::uint64_t index, std::int64_t pid) const {
  for (const auto& w : workers) {
    if (w.index == index && w.pid == pid) return &w;
  }
  return nullptr;
}

const CollectorEntry* RunDocument::collector(std::string_view name) const {
  for (const auto& c : collectors) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace jbench::model
