// The history page's assembly: the header and outcome banner, the bundles in order (each usable
// or a gap, and why), then one figure per series: its line across the bundles with the gaps as
// breaks and shaded stripes, its change points as markers, and the changes listed below it.
#include "jbench/html_pages/history_html.h"

#include <fmt/format.h>

#include <optional>
#include <set>
#include <vector>

#include "format.h"
#include "html_escape.h"
#include "metric_text.h"
#include "page_frame.h"
#include "plots.h"

namespace jbench::html_pages {

using nlohmann::json;

namespace {

// Beyond this many bundles the table starts folded: a year of nights should not push the plots
// a page-length down.
constexpr std::size_t kOpenTableUpTo = 40;

// More bundles than any folder of nightlies holds: an index past it is garbage, not a bundle.
constexpr double kMaxSlot = 1e6;

// A bundle index from the document: a whole, non-negative, plausible number, or nothing.
std::optional<std::size_t> slot_of(const json& value) {
  const auto v = number(value);
  if (!v || *v < 0 || *v > kMaxSlot || *v != static_cast<double>(static_cast<std::size_t>(*v))) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(*v);
}

// The document's bundle at `slot`, or a null when it has none there.
const json& bundle_at(const json& bundles, std::size_t slot) {
  static const json kNone;
  const json& list = array_or_empty(bundles);
  return slot < list.size() ? list[slot] : kNone;
}

std::string or_unknown(const std::string& s, std::string_view what) {
  return s.empty() ? "(" + std::string(what) + " unknown)" : s;
}

// A git revision cut to 12 characters, as people quote them; the bundles table has the full one
// on hover.
std::string short_revision(const std::string& revision) {
  return revision.size() > 12 ? revision.substr(0, 12) : revision;
}

// "#3 2026-11-02T01:00:00Z", what a point is named by; a change adds the revision. (A point's
// title leaves the revision to the bundles table: there is one per value of every series.)
std::string bundle_name(const json& bundles, std::size_t slot, bool with_revision) {
  const json& b = bundle_at(bundles, slot);
  std::string out = fmt::format("#{}", slot + 1);
  if (const std::string t = text(field(b, "started_utc")); !t.empty()) out += " " + t;
  const std::string r = text(field(b, "revision"));
  if (with_revision && !r.empty()) out += " " + short_revision(r);
  return out;
}

bool usable(const json& bundle) { return field(bundle, "usable") == true; }

std::string gap_reason(const json& bundle) {
  const std::string reason = text(field(bundle, "gap_reason"));
  return reason.empty() ? "not usable (no reason given)" : reason;
}

std::string bundles_section(const json& bundles) {
  const json& list = array_or_empty(bundles);
  std::size_t gaps = 0;
  for (const json& b : list) gaps += !usable(b);
  std::string out = fmt::format(
      "<section id=\"bundles\">\n<h2>The bundles, in the order they started</h2>\n"
      "<details{}><summary>{}: {} usable, {}</summary>\n",
      list.size() <= kOpenTableUpTo ? " open" : "",
      count_of(static_cast<double>(list.size()), "bundle"), list.size() - gaps,
      count_of(static_cast<double>(gaps), "gap"));
  if (list.empty()) return out + "<p class=\"empty\">No bundles.</p>\n</details>\n</section>\n";
  out +=
      "<table class=\"bundles\">\n<thead><tr><th>#</th><th>started</th><th>revision</th>"
      "<th>bundle</th><th>usable</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& b = list[i];
    const bool ok = usable(b);
    out += fmt::format(
        "<tr class=\"bundle-row {}\" data-bundle=\"{}\" data-usable=\"{}\"><td>#{}</td>"
        "<td class=\"time\">{}</td><td class=\"revision\" title=\"{}\">{}</td>"
        "<td class=\"path\">{}</td><td>{}</td></tr>\n",
        ok ? "usable" : "gap", i, ok ? "true" : "false", i + 1,
        escape(or_unknown(text(field(b, "started_utc")), "time")),
        escape(text(field(b, "revision"))),
        escape(or_unknown(short_revision(text(field(b, "revision"))), "revision")),
        escape(text(field(b, "dir"))), ok ? "usable" : "gap: " + escape(gap_reason(b)));
  }
  return out + "</tbody>\n</table>\n</details>\n</section>\n";
}

// Each run of bundles the series has no value for, titled with why the first of them has none.
std::vector<SeriesGap> gaps_of(const std::set<std::size_t>& present, std::size_t slots,
                               const json& bundles) {
  std::vector<SeriesGap> gaps;
  for (std::size_t i = 0; i < slots; ++i) {
    if (present.count(i)) continue;
    std::size_t j = i;
    while (j + 1 < slots && !present.count(j + 1)) ++j;
    const json& first = bundle_at(bundles, i);
    const std::string why = usable(first) ? "this cell measured nothing there" : gap_reason(first);
    const std::string range =
        i == j ? fmt::format("#{} has", i + 1) : fmt::format("#{}–#{} have", i + 1, j + 1);
    gaps.push_back({i, j, range + " no value: " + why});
    i = j;
  }
  return gaps;
}

std::string change_text(const json& change, const json& bundles, const std::string& metric) {
  const auto slot = slot_of(field(change, "bundle"));
  std::string out = slot ? "at " + bundle_name(bundles, *slot, true) : "at an unnamed bundle";
  out += fmt::format(" (revisions {} → {})",
                     or_unknown(short_revision(text(field(change, "from_revision"))), "revision"),
                     or_unknown(short_revision(text(field(change, "to_revision"))), "revision"));
  const auto before = number(field(change, "before")), after = number(field(change, "after"));
  if (before && after) {
    out += ": " + metric_value(metric, *before) + " → " + metric_value(metric, *after);
  }
  if (const auto r = number(field(change, "ratio"))) out += ", " + ratio(*r);
  if (const auto p = number(field(change, "p"))) out += ", p " + plain(*p);
  return out + (field(change, "worse") == true ? ", for the worse" : "");
}

std::string series_figure(const json& series, const json& bundles) {
  const std::string cell = text(field(series, "cell"));
  const std::string metric = text(field(series, "metric"));
  const json& slots_of = array_or_empty(field(series, "bundles"));
  const json& values = array_or_empty(field(series, "values"));
  std::vector<SeriesPoint> points;
  std::set<std::size_t> present;
  for (std::size_t k = 0; k < std::min(slots_of.size(), values.size()); ++k) {
    const auto slot = slot_of(slots_of[k]);
    const auto value = number(values[k]);
    if (!slot || !value || present.count(*slot)) continue;
    present.insert(*slot);
    points.push_back(
        {*slot, *value, bundle_name(bundles, *slot, false) + ": " + metric_value(metric, *value)});
  }
  std::size_t slots = array_or_empty(bundles).size();
  if (!present.empty()) slots = std::max(slots, *present.rbegin() + 1);
  const std::vector<SeriesGap> gaps = gaps_of(present, slots, bundles);

  std::vector<SeriesMarker> markers;
  std::string changes;
  for (const json& c : array_or_empty(field(series, "changes"))) {
    const bool worse = field(c, "worse") == true;
    const std::string line = change_text(c, bundles, metric);
    const auto slot = slot_of(field(c, "bundle"));
    if (slot) markers.push_back({*slot, "change " + line, worse});
    changes += fmt::format("<li class=\"change{}\" data-bundle=\"{}\">{}</li>\n",
                           worse ? " worse" : "", slot ? std::to_string(*slot) : "", escape(line));
  }
  const std::string name = (cell.empty() ? "(unnamed cell)" : cell) + " · " + metric_label(metric);
  std::string out = fmt::format(
      "<figure class=\"series\" data-cell=\"{}\" data-metric=\"{}\" data-points=\"{}\" "
      "data-gaps=\"{}\" data-changes=\"{}\">\n<figcaption>{} <span class=\"note\">({} is "
      "better)</span></figcaption>\n",
      escape(cell), escape(metric), points.size(), gaps.size(), markers.size(), escape(name),
      field(series, "higher_is_better") == false ? "lower" : "higher");
  out += series_plot(points, slots, gaps, markers, metric_label(metric), name);
  out += changes.empty() ? "<p class=\"empty\">No change point.</p>\n"
                         : "<ul class=\"changes\">\n" + changes + "</ul>\n";
  return out + "</figure>\n";
}

std::string series_section(const json& series, const json& bundles) {
  std::string out =
      "<section id=\"series\">\n<h2>Each cell and metric across the bundles</h2>\n"
      "<p class=\"explain\">Each bundle's median; a bundle with no value for the series breaks "
      "the line and is shaded. A vertical line is a change point, red when for the worse.</p>\n";
  if (array_or_empty(series).empty()) {
    return out +
           "<p class=\"empty\">No series: no usable bundle measured a cell.</p>\n"
           "</section>\n";
  }
  for (const json& s : array_or_empty(series)) out += series_figure(s, bundles);
  return out + "</section>\n";
}

}  // namespace

std::string history_to_html(const json& history) {
  const std::string dir = text(field(history, "dir"));
  std::string out = page_head("jbench history — " + (dir.empty() ? "?" : dir));
  out += "<header>\n<h1>jbench history</h1>\n";
  out += "<p class=\"bundle\">folder: " + escape(dir.empty() ? "(not named)" : dir) + "</p>\n";
  out += outcome_banner(history) + schema_note(history, "jbench.history") + "</header>\n";
  const json& bundles = field(history, "bundles");
  out += bundles_section(bundles);
  out += series_section(field(history, "series"), bundles);
  return out + "</body>\n</html>\n";
}

}  // namespace jbench::html_pages
