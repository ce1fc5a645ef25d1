#include "span_graph.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "jbench/common/random.h"

namespace jbench::events_detail {
namespace {

// FNV-1a 64 then the SplitMix64 finaliser: ids are short strings, collisions are 2^-64 events.
std::uint64_t hash_id(std::string_view id) { return mix64(fnv1a64(id)); }

enum State : std::uint8_t { kUnvisited, kOnPath, kRooted, kReported };

using Findings = std::vector<std::pair<std::size_t, std::string>>;

}  // namespace

void SpanGraph::begin(std::string_view id, std::optional<std::string_view> parent, std::size_t line,
                      const Report& report) {
  const std::uint64_t h = hash_id(id);
  if (!begun_.insert(h).second) {
    report("events.duplicate_span", line, fmt::format("span {} begins a second time", id));
    return;
  }
  if (early_end_.erase(h) == 0) open_.emplace(h, line);
  if (!parent) return;
  const std::uint64_t p = hash_id(*parent);
  if (p == h || !proven(p)) {  // its own parent: proven only because it was just inserted
    pending_.emplace(h, Pending{p, line});
    parent_names_.try_emplace(p, *parent);
  }
}

void SpanGraph::end(std::string_view id, std::size_t line, const Report& report) {
  const std::uint64_t h = hash_id(id);
  if (open_.erase(h) == 1) return;
  if (begun_.count(h) || !early_end_.emplace(h, line).second) {
    report("events.unpaired", line, fmt::format("span {} ends twice", id));
  }
}

// Follows parents from the pending span `first` until a proven span (rooted), a parent that never
// begins (orphan), or a span already on the path (cycle), and gives every pending span on the
// way that outcome, so each is walked once. Only pending spans can be on a cycle: a span proven
// when it began has a chain of parents, fixed since, that ends at a root.
void SpanGraph::resolve(std::uint64_t first, Findings& orphans) {
  std::vector<Pending*> path;
  State outcome = kReported;
  for (std::uint64_t h = first;;) {
    Pending& s = pending_.at(h);
    if (s.state == kRooted || s.state == kReported) {
      outcome = static_cast<State>(s.state);
      break;
    }
    if (s.state == kOnPath) {
      orphans.emplace_back(s.line,
                           "the span that begins on this line is its own ancestor: its "
                           "parents form a cycle");
      break;
    }
    s.state = kOnPath;
    path.push_back(&s);
    if (proven(s.parent)) {
      outcome = kRooted;
      break;
    }
    if (!begun_.count(s.parent)) {
      orphans.emplace_back(s.line, fmt::format("the span that begins on this line names parent "
                                               "{}, which never begins in this run",
                                               parent_names_.at(s.parent)));
      break;
    }
    h = s.parent;
  }
  for (Pending* s : path) s->state = outcome;
}

void SpanGraph::finish(const Report& report) {
  Findings unpaired;
  for (const auto& [h, line] : open_) {
    unpaired.emplace_back(line, "the span that begins on this line never ends");
  }
  for (const auto& [h, line] : early_end_) {
    unpaired.emplace_back(line, "a span ends on this line but never begins");
  }
  Findings orphans;
  for (auto& [h, s] : pending_) {
    if (s.state == kUnvisited) resolve(h, orphans);
  }
  // Findings in file order, whatever the hash order.
  std::sort(unpaired.begin(), unpaired.end());
  std::sort(orphans.begin(), orphans.end());
  for (auto& [line, message] : unpaired) report("events.unpaired", line, std::move(message));
  for (auto& [line, message] : orphans) report("events.orphan_span", line, std::move(message));
}

}  // namespace jbench::events_detail
