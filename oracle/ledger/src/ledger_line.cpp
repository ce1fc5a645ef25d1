#include "jbench/oracle/ledger_line.h"

#include <charconv>

#include "jbench/common/random.h"

namespace jbench::oracle {
namespace {

template <typename Int>
bool parse_int(std::string_view text, Int& out) {
  if (text.empty()) return false;
  const auto* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && p == end;
}

void append_uint(std::string& out, std::uint64_t v) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, p);
}

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, p);
}

// Takes the next space-separated token, which must be `name=value`, and yields the value.
bool take_field(std::string_view& rest, std::string_view name, std::string_view& value) {
  const std::size_t space = rest.find(' ');
  const std::string_view token = rest.substr(0, space);
  rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  if (token.size() <= name.size() || token.substr(0, name.size()) != name ||
      token[name.size()] != '=') {
    return false;
  }
  value = token.substr(name.size() + 1);
  return true;
}

bool take_uint(std::string_view& rest, std::string_view name, std::uint64_t& out) {
  std::string_view v;
  return take_field(rest, name, v) && parse_int(v, out);
}

}  // namespace

std::uint64_t transaction_checksum(std::uint64_t writer, std::uint64_t seq, std::string_view body) {
  std::string text = "w=";
  append_uint(text, writer);
  text += " seq=";
  append_uint(text, seq);
  text += " body=";
  text += body;
  return fnv1a64(text);
}

std::string checksum_hex(std::uint64_t checksum) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = kHex[checksum & 0xf];
    checksum >>= 4;
  }
  return out;
}

std::optional<std::uint64_t> parse_checksum_hex(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 16);
  if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  // from_chars accepts upper case; the format is lower case only.
  if (text.find_first_not_of("0123456789abcdef") != std::string_view::npos) return std::nullopt;
  return v;
}

std::string format_ledger_line(const LedgerLine& line) {
  std::string out;
  out.reserve(64 + line.body.size());
  switch (line.kind) {
    case LedgerLineKind::start:
      out += "start w=";
      append_uint(out, line.writer);
      out += " inc=";
      append_uint(out, line.incarnation);
      out += " next=";
      append_uint(out, line.seq);
      return out;
    case LedgerLineKind::end:
      out += "end w=";
      append_uint(out, line.writer);
      out += " inc=";
      append_uint(out, line.incarnation);
      out += " last=";
      append_uint(out, line.seq);
      return out;
    case LedgerLineKind::txn:
      break;
  }
  out += "txn w=";
  append_uint(out, line.writer);
  out += " inc=";
  append_uint(out, line.incarnation);
  out += " seq=";
  append_uint(out, line.seq);
  out += " aborts=";
  append_uint(out, line.aborts);
  out += " sp_ok=";
  append_uint(out, line.savepoints_kept);
  out += " sp_rb=";
  append_uint(out, line.savepoints_rolled);
  out += " body=";
  out += line.body;
  out += " sum=";
  out += checksum_hex(line.checksum);
  return out;
}

std::optional<LedgerLine> parse_ledger_line(std::string_view text) {
  LedgerLine line;
  std::string_view rest;
  if (text.starts_with("txn ")) {
    line.kind = LedgerLineKind::txn;
    rest = text.substr(4);
    std::string_view body, sum;
    if (!take_uint(rest, "w", line.writer) || !take_uint(rest, "inc", line.incarnation) ||
        !take_uint(rest, "seq", line.seq) || !take_uint(rest, "aborts", line.aborts) ||
        !take_uint(rest, "sp_ok", line.savepoints_kept) ||
        !take_uint(rest, "sp_rb", line.savepoints_rolled) || !take_field(rest, "body", body) ||
        !take_field(rest, "sum", sum) || !rest.empty()) {
      return std::nullopt;
    }
    const auto checksum = parse_checksum_hex(sum);
    if (!checksum) return std::nullopt;
    line.body = std::string(body);
    line.checksum = *checksum;
    return line;
  }
  std::string_view seq_name;
  if (text.starts_with("start ")) {
    line.kind = LedgerLineKind::start;
    rest = text.substr(6);
    seq_name = "next";
  } else if (text.starts_with("end ")) {
    line.kind = LedgerLineKind::end;
    rest = text.substr(4);
    seq_name = "last";
  } else {
    return std::nullopt;
  }
  if (!take_uint(rest, "w", line.writer) || !take_uint(rest, "inc", line.incarnation) ||
      !take_uint(rest, seq_name, line.seq) || !rest.empty()) {
    return std::nullopt;
  }
  return line;
}

std::string format_keyed_body(const std::vector<KeyedWrite>& writes) {
  std::string out;
  for (const auto& w : writes) {
    if (!out.empty()) out += ';';
    append_int(out, w.key);
    out += '=';
    append_int(out, w.value);
  }
  return out;
}

std::string format_bank_body(const std::vector<Transfer>& transfers) {
  std::string out;
  for (const auto& t : transfers) {
    if (!out.empty()) out += ';';
    append_int(out, t.from);
    out += '>';
    append_int(out, t.to);
    out += ':';
    append_int(out, t.amount);
  }
  return out;
}

bool parse_keyed_body(std::string_view body, std::vector<KeyedWrite>& out) {
  while (!body.empty()) {
    const std::size_t semi = body.find(';');
    const std::string_view item = body.substr(0, semi);
    body = semi == std::string_view::npos ? std::string_view() : body.substr(semi + 1);
    const std::size_t eq = item.find('=');
    KeyedWrite w;
    if (eq == std::string_view::npos || !parse_int(item.substr(0, eq), w.key) ||
        !parse_int(item.substr(eq + 1), w.value)) {
      return false;
    }
    out.push_back(w);
  }
  return true;
}

bool parse_bank_body(std::string_view body, std::vector<Transfer>& out) {
  while (!body.empty()) {
    const std::size_t semi = body.find(';');
    const std::string_view item = body.substr(0, semi);
    body = semi == std::string_view::npos ? std::string_view() : body.substr(semi + 1);
    const std::size_t gt = item.find('>');
    const std::size_t colon = item.find(':');
    Transfer t;
    if (gt == std::string_view::npos || colon == std::string_view::npos || colon < gt ||
        !parse_int(item.substr(0, gt), t.from) ||
        !parse_int(item.substr(gt + 1, colon - gt - 1), t.to) ||
        !parse_int(item.substr(colon + 1), t.amount)) {
      return false;
    }
    out.push_back(t);
  }
  return true;
}

}  // namespace jbench::oracle
