#include "span_graph.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "jbench/common/random.h"

namespace jbench::events_detail {
namespace {

// FNV-1a 64 then the SplitMix64 finaliser: ids are short strings, collisions are 2^-64 events.
std::uint64_t hash_id(std::string_view id) { return mix64(fnv1a64(id)); }

}  // namespace

void SpanGraph::begin(std::string_view id, std::optional<std::string_view> parent, std::size_t line,
                      const Report& report) {
  const std::uint64_t h = hash_id(id);
  if (!begun_.insert(h).second) {
    report("events.duplicate_span", line, fmt::format("span {} begins a second time", id));
    return;
  }
  if (parent && !begun_.count(hash_id(*parent))) {
    report("events.orphan_span", line,
           fmt::format("span {} names parent {}, which has not begun in this run", id, *parent));
  }
  open_.emplace(h, line);
}

void SpanGraph::end(std::string_view id, std::size_t line, const Report& report) {
  const std::uint64_t h = hash_id(id);
  if (open_.erase(h) == 1) return;
  if (begun_.count(h)) {
    report("events.unpaired", line, fmt::format("span {} ends twice", id));
  } else {
    report("events.unpaired", line, fmt::format("span {} ends but never began", id));
  }
}

void SpanGraph::finish(const Report& report) const {
  std::vector<std::size_t> lines;
  for (const auto& [h, line] : open_) lines.push_back(line);
  std::sort(lines.begin(), lines.end());  // findings in file order, whatever the hash order
  for (auto line : lines) {
    report("events.unpaired", line, "the span that begins on this line never ends");
  }
}

}  // namespace jbench::events_detail
