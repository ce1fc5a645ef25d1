#include "jbench/matrix/load.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "decode_parts.h"
#include "jbench/common/sha256.h"
#include "jbench/common/text.h"
#include "jbench/matrix/yaml_tree.h"

namespace jbench {
std::optional<Diagnostic> check_matrix_text(std::string_view text, const std::string& file) {
  auto at = [&](std::size_t offset, std::string message) {
    const auto lc = line_column_at(text, offset);
    return Diagnostic{
        {file, static_cast<std::uint32_t>(lc.line), static_cast<std::uint32_t>(lc.column)},
        "",
        std::move(message)};
  };
  if (auto bad = first_invalid_utf8(text)) {
    return at(*bad, fmt::format("the file is not valid UTF-8 (byte 0x{:02x} at offset {})",
                                static_cast<unsigned char>(text[*bad]), *bad));
  }
  if (text.find('\0') != std::string_view::npos) {
    return at(text.find('\0'), "the file contains a NUL byte; a matrix is text");
  }
  return std::nullopt;
}

std::optional<Diagnostic> read_matrix_text(const std::string& path, std::string& text) {
  auto fail_with = [&](std::string message) {
    return Diagnostic{{path, 0, 0}, "", std::move(message)};
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    return fail_with(err == ENOENT ? std::string("no such file")
                                   : fmt::format("cannot read: {}", std::strerror(err)));
  }
  if (S_ISDIR(st.st_mode)) return fail_with("is a directory, not a matrix file");
  if (!S_ISREG(st.st_mode)) return fail_with("is not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxMatrixFileBytes) {
    return fail_with(fmt::format("the file is {} bytes; matrix files are limited to {} bytes",
                                 st.st_size, kMaxMatrixFileBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail_with(fmt::format("cannot open: {}", std::strerror(errno)));
  // Read at most one byte past the cap: the file may have grown since stat().
  text.assign(kMaxMatrixFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) return fail_with("read error");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxMatrixFileBytes) {
    return fail_with(fmt::format("the file is over the limit of {} bytes", kMaxMatrixFileBytes));
  }
  return std::nullopt;
}

bool decode::load_matrix_tree(std::string_view text, const std::string& file, yaml::Tree& tree,
                              std::vector<Diagnostic>& out) {
  if (auto bad = check_matrix_text(text, file)) {
    out.push_back(std::move(*bad));
    return false;
  }
  tree = yaml::load_yaml_tree(text, file);
  if (!tree.ok()) {
    out = std::move(tree.diagnostics);
    return false;
  }
  return true;
}

LoadedMatrix parse_matrix(std::string_view text, const std::string& file) {
  LoadedMatrix out;
  yaml::Tree tree;
  if (!decode::load_matrix_tree(text, file, tree, out.diagnostics)) return out;
  Matrix m;
  m.file = file;
  m.sha256 = sha256_hex(text);
  m.source_text = std::string(text);
  decode::Context ctx(file, out.diagnostics);
  decode::decode_matrix(ctx, tree.root, m);
  if (out.diagnostics.empty()) out.matrix = std::move(m);
  return out;
}

LoadedMatrix load_matrix_file(const std::string& path) {
  std::string text;
  if (auto bad = read_matrix_text(path, text)) {
    LoadedMatrix out;
    out.diagnostics.push_back(std::move(*bad));
    return out;
  }
  return parse_matrix(text, path);
}

}  // namespace jbench
