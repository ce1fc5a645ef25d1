#include "jbench/common/diagnostic.h"

#include <fmt/format.h>

#include <algorithm>

namespace jbench {

std::string format_diagnostic(const Diagnostic& d) {
  std::string out;
  if (!d.where.file.empty()) {
    out += d.where.file;
    if (d.where.line > 0) {
      out += fmt::format(":{}", d.where.line);
      if (d.where.column > 0) out += fmt::format(":{}", d.where.column);
    }
    out += ": ";
  }
  out += "error: ";
  if (!d.key_path.empty()) out += d.key_path + ": ";
  out += d.message;
  return out;
}

std::string format_diagnostics(std::vector<Diagnostic> diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     if (a.where.line != b.where.line) return a.where.line < b.where.line;
                     return a.where.column < b.where.column;
                   });
  std::string out;
  for (const auto& d : diagnostics) {
    out += format_diagnostic(d);
    out += '\n';
  }
  return out;
}

}  // namespace jbench
