#include "jbench/common/file_name.h"

#include <fmt/format.h>

namespace jbench {
namespace {

constexpr std::string_view kRule = "use 1 to 100 of A-Z a-z 0-9 . _ -, not '.' or '..'";

bool allowed(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

Error not_plain(std::string why) { return Error{std::move(why), 0, ErrorKind::input}; }

}  // namespace

Status check_plain_file_name(std::string_view name) {
  static_assert(kMaxPlainFileNameBytes == 100, "kRule quotes the limit");
  if (name.empty()) return not_plain(fmt::format("is empty; {}", kRule));
  if (name.size() > kMaxPlainFileNameBytes) {
    return not_plain(fmt::format("is {} characters long; {}", name.size(), kRule));
  }
  if (name == "." || name == "..") {
    return not_plain(fmt::format("'{}' names a directory; {}", name, kRule));
  }
  for (const char c : name) {
    if (c == '/') return not_plain(fmt::format("'{}' contains '/'; {}", name, kRule));
    if (!allowed(c)) {
      // The byte as a number, and not the name: it may be a control byte or half of a UTF-8
      // sequence, which would garble the message it is quoted in.
      return not_plain(
          fmt::format("contains the byte 0x{:02x}; {}", static_cast<unsigned char>(c), kRule));
    }
  }
  return {};
}

}  // namespace jbench
