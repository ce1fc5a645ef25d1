// Loading a matrix: from text (pure) or from a file (reads it, with the input checks below).
//
//   auto loaded = jbench::load_matrix_file("matrices/sqlite.yaml");
//   if (!loaded.matrix) { std::cerr << format_diagnostics(loaded.diagnostics); return 2; }
//
// Every problem in a file is reported in one go, each with file:line:column and the key path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/diagnostic.h"
#include "jbench/matrix/matrix.h"

namespace jbench {

// Matrix files larger than this are refused before they are read.
inline constexpr std::uint64_t kMaxMatrixFileBytes = 1024 * 1024;

struct LoadedMatrix {
  std::optional<Matrix> matrix;  // set only when diagnostics is empty
  std::vector<Diagnostic> diagnostics;
};

// `file` labels diagnostics and is recorded in the Matrix. Checks UTF-8 first.
LoadedMatrix parse_matrix(std::string_view text, const std::string& file);

// Refuses a missing path, a directory or other non-regular file, an unreadable file, and a file
// over kMaxMatrixFileBytes, each with one diagnostic; then parse_matrix().
LoadedMatrix load_matrix_file(const std::string& path);

// What every matrix file (run or oracle) goes through before it is parsed: valid UTF-8 and no
// NUL (a located diagnostic otherwise), and reading with the refusals above.
std::optional<Diagnostic> check_matrix_text(std::string_view text, const std::string& file);
std::optional<Diagnostic> read_matrix_text(const std::string& path, std::string& text);

}  // namespace jbench
