// Diagnostics: an error about the user's input that points at the input and says how to fix it.
//
//   Diagnostic d{{"matrices/x.yaml", 3, 5}, "axes.workers[1]", "value 0 is out of range 1..1024"};
//   format_diagnostic(d)  // "matrices/x.yaml:3:5: error: axes.workers[1]: value 0 is out of
//   range 1..1024"
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jbench {

// A position in an input file. Lines and columns are 1-based; 0 means "unknown" (the
// diagnostic then names the file only).
struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

struct Diagnostic {
  SourceLocation where;
  std::string key_path;  // e.g. "axes.dataset[1].rows"; empty when the error is about the file
  std::string message;   // what is wrong and, after "; ", how to fix it
};

// "file:line:col: error: key.path: message" (parts that are unknown are left out).
std::string format_diagnostic(const Diagnostic& d);

// Diagnostics ordered by (line, column) and then by insertion, each on its own line.
std::string format_diagnostics(std::vector<Diagnostic> diagnostics);

}  // namespace jbench
