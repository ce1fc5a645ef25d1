#include "span_graph.h"

#include <fmt/format.h>

#include <set>

namespace jbench::events_detail {

void SpanGraph::begin(const std::string& id, const std::optional<std::string>& parent,
                      std::size_t line, const Report& report) {
  auto [it, fresh] = spans_.try_emplace(id, Span{parent, line, false});
  if (!fresh) {
    report("events.duplicate_span", line,
           fmt::format("span {} begins again (first at line {})", id, it->second.begin_line));
  }
}

void SpanGraph::end(const std::string& id, std::size_t line, const Report& report) {
  auto it = spans_.find(id);
  if (it == spans_.end()) {
    report("events.unpaired", line, fmt::format("span {} ends but never began", id));
    return;
  }
  if (it->second.ended) {
    report("events.unpaired", line, fmt::format("span {} ends twice", id));
    return;
  }
  it->second.ended = true;
}

void SpanGraph::finish(const Report& report) const {
  for (const auto& [id, span] : spans_) {
    if (!span.ended) {
      report("events.unpaired", span.begin_line, fmt::format("span {} never ends", id));
    }
    if (span.parent && !spans_.count(*span.parent)) {
      report("events.orphan_span", span.begin_line,
             fmt::format("span {} names parent {}, which is not in the run", id, *span.parent));
      continue;
    }
    // Walk up the parents; seeing a span twice is a cycle (reported at its lowest member).
    std::set<std::string> seen{id};
    for (auto p = span.parent; p;) {
      if (!seen.insert(*p).second) {
        if (*p == id) {
          report("events.span_cycle", span.begin_line,
                 fmt::format("span {} is its own ancestor", id));
        }
        break;
      }
      auto it = spans_.find(*p);
      if (it == spans_.end()) break;
      p = it->second.parent;
    }
  }
}

}  // namespace jbench::events_detail
