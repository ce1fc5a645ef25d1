#include "text_file.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace jbench::test {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string edited(std::string text, const TextEdits& edits) {
  for (const auto& [from, to] : edits) {
    auto at = text.find(from);
    if (from.empty() || at == std::string::npos) {
      throw std::runtime_error("the text to edit holds no '" + from + "'");
    }
    for (; at != std::string::npos; at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
  }
  return text;
}

std::string write_edited_copy(const std::string& source, const std::string& dest,
                              const TextEdits& edits) {
  // Read whole before `dest` is opened: it may be `source` itself.
  const std::string text = edited(read_text(source), edits);
  std::ofstream(dest, std::ios::binary | std::ios::trunc) << text;
  return dest;
}

}  // namespace jbench::test
