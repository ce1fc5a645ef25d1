// How the compare and history pages name a metric and write its values. Metrics are open-ended
// (a workload may add per-operation counters), so any name is shown: the known ones get a nicer
// label, and a value's unit is taken from the name's suffix (_ns: a duration, _per_s: a rate,
// _per_op: per operation), else the number is written plainly.
#pragma once

#include <string>
#include <string_view>

namespace jbench::html_pages {

// "throughput_ops_per_s" → "throughput (ops/s)", "p99_ns" → "p99 latency"; others as they are.
std::string metric_label(std::string_view metric);

// 50060 for throughput_ops_per_s → "50060 ops/s"; 1360 for p50_ns → "1.36 µs"; 0.5 for
// fsyncs_per_op → "0.5/op"; 5200 for cpu_ns_per_op → "5.2 µs/op".
std::string metric_value(std::string_view metric, double value);

}  // namespace jbench::html_pages
