#include "jbench/events/event_text.h"

#include <algorithm>

namespace jbench::events {
namespace {

// The escaper reads NUL-terminated text: one piece without a NUL, through a copy that has one.
void append_escaped(std::string& out, std::string_view piece, std::string& scratch) {
  scratch.assign(piece);
  const char* rest = scratch.c_str();
  char chunk[256];
  while (*rest) out.append(chunk, jb_events_json_escape(&rest, chunk, sizeof chunk));
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out.push_back('"');
  // Nearly every name and path is printable ASCII without quotes or backslashes, which the
  // escaper would copy unchanged: appended as it is, without the copy the escaper needs.
  const bool plain = std::all_of(text.begin(), text.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
  });
  if (plain) {
    out.append(text);
    out.push_back('"');
    return;
  }
  std::string scratch;
  for (std::size_t at = 0;;) {
    const std::size_t nul = text.find('\0', at);
    append_escaped(out, text.substr(at, nul - at), scratch);
    if (nul == std::string_view::npos) break;
    out.append("\\u0000");
    at = nul + 1;
  }
  out.push_back('"');
}

}  // namespace jbench::events
