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
namespace {

LoadedMatrix fail(const std::string& file, std::uint32_t line, std::uint32_t column,
                  std::string message) {
  LoadedMatrix out;
  out.diagnostics.push_back(Diagnostic{{file, line, column}, "", std::move(message)});
  return out;
}

}  // namespace

LoadedMatrix parse_matrix(std::string_view text, const std::string& file) {
  if (auto bad = first_invalid_utf8(text)) {
    const auto lc = line_column_at(text, *bad);
    return fail(file, static_cast<std::uint32_t>(lc.line), static_cast<std::uint32_t>(lc.column),
                fmt::format("the file is not valid UTF-8 (byte 0x{:02x} at offset {})",
                            static_cast<unsigned char>(text[*bad]), *bad));
  }
  if (text.find('\0') != std::string_view::npos) {
    const auto lc = line_column_at(text, text.find('\0'));
    return fail(file, static_cast<std::uint32_t>(lc.line), static_cast<std::uint32_t>(lc.column),
                "the file contains a NUL byte; a matrix is text");
  }
  auto tree = yaml::load_yaml_tree(text, file);
  LoadedMatrix out;
  if (!tree.ok()) {
    out.diagnostics = std::move(tree.diagnostics);
    return out;
  }
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
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    return fail(path, 0, 0,
                err == ENOENT ? std::string("no such file")
                              : fmt::format("cannot read: {}", std::strerror(err)));
  }
  if (S_ISDIR(st.st_mode)) return fail(path, 0, 0, "is a directory, not a matrix file");
  if (!S_ISREG(st.st_mode)) return fail(path, 0, 0, "is not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxMatrixFileBytes) {
    return fail(path, 0, 0,
                fmt::format("the file is {} bytes; matrix files are limited to {} bytes",
                            st.st_size, kMaxMatrixFileBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path, 0, 0, fmt::format("cannot open: {}", std::strerror(errno)));
  // Read at most one byte past the cap: the file may have grown since stat().
  std::string text(kMaxMatrixFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) return fail(path, 0, 0, "read error");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxMatrixFileBytes) {
    return fail(path, 0, 0,
                fmt::format("the file is over the limit of {} bytes", kMaxMatrixFileBytes));
  }
  return parse_matrix(text, path);
}

}  // namespace jbench
