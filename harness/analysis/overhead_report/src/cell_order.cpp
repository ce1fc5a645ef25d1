#include "jbench/overhead_report/cell_order.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <optional>

#include "jbench/common/trace_mode.h"

namespace jbench::overhead_report {

bool natural_less(std::string_view a, std::string_view b) {
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t ie = i;
      std::size_t je = j;
      while (ie < a.size() && digit(a[ie])) ++ie;
      while (je < b.size() && digit(b[je])) ++je;
      const std::string_view x = a.substr(i, ie - i);
      const std::string_view y = b.substr(j, je - j);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

std::size_t mode_rank(std::string_view mode) {
  return static_cast<std::size_t>(std::find(kTraceValues.begin(), kTraceValues.end(), mode) -
                                  kTraceValues.begin());
}

std::vector<std::string> ordered_points(const std::vector<RunFacts>& runs) {
  std::map<std::string, std::optional<std::size_t>> rank;  // a point's first cell in the plan
  for (const RunFacts& r : runs) {
    auto& slot = rank[r.cell];
    if (r.plan_rank && (!slot || *r.plan_rank < *slot)) slot = r.plan_rank;
  }
  std::vector<std::pair<std::string, std::optional<std::size_t>>> points(rank.begin(), rank.end());
  std::sort(points.begin(), points.end(), [](const auto& x, const auto& y) {
    if (x.second && y.second) return *x.second < *y.second;
    if (x.second || y.second) return x.second.has_value();  // the plan's points first
    return natural_less(x.first, y.first);
  });
  std::vector<std::string> out;
  for (auto& [point, ignored] : points) out.push_back(point);
  return out;
}

std::vector<std::pair<std::string, std::string>> ordered_cells(const std::vector<RunFacts>& runs) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& point : ordered_points(runs)) {
    const std::size_t first = out.size();
    for (const RunFacts& r : runs) {
      const std::pair<std::string, std::string> cell{point, r.trace_name()};
      if (r.cell == point && std::find(out.begin() + first, out.end(), cell) == out.end())
        out.push_back(cell);
    }
    std::stable_sort(out.begin() + first, out.end(), [](const auto& a, const auto& b) {
      return mode_rank(a.second) < mode_rank(b.second);
    });
  }
  return out;
}

}  // namespace jbench::overhead_report
