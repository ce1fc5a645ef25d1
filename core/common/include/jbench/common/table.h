// A table of text cells, written as CSV (RFC 4180) or as a GitHub-flavoured Markdown table: what
// `--format csv|markdown` prints (docs/cli.md), for spreadsheets and pull requests.
//
//   Table t{{"cell", "share_pct"}, {{"w1.cold", "31.2"}}};
//   std::cout << to_csv(t);       // cell,share_pct\nw1.cold,31.2\n
#pragma once

#include <string>
#include <vector>

namespace jbench {

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // each as wide as `columns`
};

// Fields with a comma, a quote or a line break are quoted, their quotes doubled; lines end "\n".
std::string to_csv(const Table& table);

// A header row, its separator and one row each; '|' escaped, line breaks as spaces.
std::string to_markdown(const Table& table);

}  // namespace jbench
