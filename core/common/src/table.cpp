#include "jbench/common/table.h"

namespace jbench {
namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string markdown_field(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

template <typename Escape>
std::string line(const std::vector<std::string>& cells, std::size_t width, const char* before,
                 const char* between, const char* after, Escape escape) {
  std::string out = before;
  for (std::size_t i = 0; i < width; ++i) {
    if (i) out += between;
    out += escape(i < cells.size() ? cells[i] : std::string());
  }
  return out + after;
}

}  // namespace

std::string to_csv(const Table& table) {
  const std::size_t width = table.columns.size();
  std::string out = line(table.columns, width, "", ",", "\n", csv_field);
  for (const auto& row : table.rows) out += line(row, width, "", ",", "\n", csv_field);
  return out;
}

std::string to_markdown(const Table& table) {
  const std::size_t width = table.columns.size();
  std::string out = line(table.columns, width, "| ", " | ", " |\n", markdown_field);
  out += line(std::vector<std::string>(width, "---"), width, "| ", " | ", " |\n",
              [](const std::string& s) { return s; });
  for (const auto& row : table.rows) out += line(row, width, "| ", " | ", " |\n", markdown_field);
  return out;
}

}  // namespace jbench
