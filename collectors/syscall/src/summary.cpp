#include "summary.h"

#include <algorithm>
#include <bit>

#include "jbench/common/text.h"
#include "syscall_table.h"

namespace jbench::collectors::syscall_detail {

using Json = nlohmann::json;

std::uint64_t log2_bucket(std::uint64_t ns) {
  return ns == 0 ? 0 : std::uint64_t{1} << (63 - std::countl_zero(ns));
}

void SummaryBuilder::add_call(std::size_t who, const CallRecord& call, const FileKey& file) {
  CallTotals& t = cells_[{who, call.role, call.phase, call.call}];
  const bool failed = call.result && *call.result < 0;
  ++t.count;
  t.errors += failed ? 1 : 0;
  t.total_ns += call.duration_ns;
  t.max_ns = std::max(t.max_ns, call.duration_ns);
  ++t.log2_buckets[log2_bucket(call.duration_ns)];
  if (call.request) {
    RequestTotals& r = t.requests[request_name(*call_by_id(call.call), *call.request)];
    ++r.count;
    r.errors += failed ? 1 : 0;
    r.total_ns += call.duration_ns;
  }
  t.has_files = true;
  FileTotals& f = t.files[file];
  ++f.count;
  f.errors += failed ? 1 : 0;
  f.total_ns += call.duration_ns;
}

void SummaryBuilder::add_totals(std::size_t who, const TotalsKey& key, const Totals& totals) {
  const int call = key.call;
  CallTotals& t = cells_[{who, key.role, key.phase, call}];
  t.count += totals.count;
  t.errors += totals.errors;
  t.total_ns += totals.total_ns;
  t.max_ns = std::max(t.max_ns, totals.max_ns);
  for (const auto& [lower, n] : totals.log2_buckets) t.log2_buckets[lower] += n;
  add_requests(t.requests, *call_by_id(call), totals);
}

void add_requests(std::map<std::string, RequestTotals>& named, const TracedCall& call,
                  const Totals& totals) {
  for (const auto& [code, n] : totals.requests) {
    RequestTotals& r = named[request_name(call, code)];
    r.count += n;
    const auto e = totals.request_errors.find(code);
    if (e != totals.request_errors.end()) r.errors += e->second;
    const auto ns = totals.request_ns.find(code);
    if (ns == totals.request_ns.end()) {
      r.timed = false;
    } else {
      r.total_ns += ns->second;
    }
  }
}

std::uint64_t SummaryBuilder::calls() const {
  std::uint64_t n = 0;
  for (const auto& [key, t] : cells_) {
    if (std::get<3>(key) != other_syscalls().id) n += t.count;
  }
  return n;
}

Json histogram_json(const std::map<std::uint64_t, std::uint64_t>& buckets) {
  Json out = Json::array();
  for (const auto& [lower, n] : buckets) out.push_back(Json::array({std::to_string(lower), n}));
  return out;
}

Json requests_json(const std::map<std::string, RequestTotals>& requests) {
  Json out = Json::object();
  for (const auto& [name, r] : requests) {
    out[name] = {{"count", r.count}, {"errors", r.errors}};
    if (r.timed) out[name]["total_ns"] = std::to_string(r.total_ns);
  }
  return out;
}

namespace {

Json files_json(const CallTotals& t, Json& cell) {
  std::vector<std::pair<FileKey, FileTotals>> rows(t.files.begin(), t.files.end());
  // The busiest first; ties in a stable order so the document is reproducible.
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.total_ns > b.second.total_ns;
  });
  Json out = Json::array();
  std::uint64_t omitted = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i >= kMaxFileRows) {
      omitted += rows[i].second.count;
      continue;
    }
    const auto& [key, f] = rows[i];
    out.push_back({{"fd", key.fd},
                   {"path", key.path.empty() ? Json(nullptr) : Json(valid_utf8(key.path))},
                   {"file", key.file ? Json(key.file->to_string()) : Json(nullptr)},
                   {"count", f.count},
                   {"errors", f.errors},
                   {"total_ns", std::to_string(f.total_ns)}});
  }
  if (omitted > 0) cell["files_omitted_calls"] = omitted;
  return out;
}

}  // namespace

Json SummaryBuilder::phases_json(std::size_t who, ThreadRole role) const {
  Json phases = Json::object();
  for (const auto& [key, t] : cells_) {
    const auto& [cell_who, cell_role, phase, call] = key;
    if (cell_who != who || cell_role != role) continue;
    Json cell = {{"count", t.count},
                 {"errors", t.errors},
                 {"total_ns", std::to_string(t.total_ns)},
                 {"max_ns", std::to_string(t.max_ns)},
                 {"histogram", histogram_json(t.log2_buckets)}};
    if (has_request(*call_by_id(call))) cell["requests"] = requests_json(t.requests);
    if (t.has_files) {
      Json files = files_json(t, cell);
      cell["files"] = std::move(files);
    }
    phases[std::string(kPhases[phase])][std::string(call_by_id(call)->name)] = std::move(cell);
  }
  return phases;
}

Json SummaryBuilder::to_json() const {
  Json incarnations = Json::array();
  for (std::size_t who = 0; who < incarnations_.size(); ++who) {
    const Incarnation& inc = incarnations_[who];
    Json entry = {{"pid", inc.pid},
                  {"start_time_ticks", std::to_string(inc.start_time_ticks)},
                  {"worker_index", inc.worker_index ? Json(*inc.worker_index) : Json(nullptr)},
                  {"origin", inc.origin},
                  {"parent", inc.parent},
                  {"phases", phases_json(who, ThreadRole::workload)}};
    Json writer = phases_json(who, ThreadRole::bridge_writer);
    if (!writer.empty()) entry["bridge_writer_phases"] = std::move(writer);
    incarnations.push_back(std::move(entry));
  }
  return {{"histogram", "log2_ns"},
          {"thread_roles", thread_roles_ ? "told_apart" : "mixed"},
          {"incarnations", std::move(incarnations)}};
}

std::string FileIdentity::to_string() const {
  return std::to_string(major) + ":" + std::to_string(minor) + ":" + std::to_string(inode);
}

}  // namespace jbench::collectors::syscall_detail
