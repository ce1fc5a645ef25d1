#include "metric_text.h"

#include <array>
#include <utility>

#include "format.h"

namespace jbench::html_pages {

std::string metric_label(std::string_view metric) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> kKnown = {{
      {"throughput_ops_per_s", "throughput (ops/s)"},
      {"p50_ns", "p50 latency"},
      {"p99_ns", "p99 latency"},
      {"instructions_per_op", "instructions per operation (counted)"},
      {"allocations_per_op", "allocation calls per operation (counted)"},
      {"cpu_ns_per_op", "CPU time per operation"},
      {"context_switches_per_op", "context switches per operation"},
      {"page_faults_per_op", "page faults per operation"},
      {"bytes_read_per_op", "bytes read per operation"},
      {"bytes_written_per_op", "bytes written per operation"},
      {"traced_syscalls_per_op", "traced calls per operation"},
      {"fsyncs_per_op", "fsyncs per operation"},
      {"gc_collections_per_op", "GC collections per operation"},
      {"gc_pause_ns_per_op", "GC pause per operation"},
  }};
  for (const auto& [name, label] : kKnown) {
    if (metric == name) return std::string(label);
  }
  return metric.empty() ? "(unnamed metric)" : std::string(metric);
}

std::string metric_value(std::string_view metric, double value) {
  if (metric.ends_with("_ns_per_op")) return duration(value) + "/op";
  if (metric.ends_with("_per_op")) return plain(value) + "/op";
  if (metric.ends_with("_ns")) return duration(value);
  if (metric.ends_with("_ops_per_s")) return plain(value) + " ops/s";
  if (metric.ends_with("_per_s")) return plain(value) + "/s";
  return plain(value);
}

}  // namespace jbench::html_pages
