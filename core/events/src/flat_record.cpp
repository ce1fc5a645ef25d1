#include "jbench/events/flat_record.h"

#include <array>
#include <charconv>

#include "jbench/stats/decimal.h"

namespace jbench::events {
namespace {

// The characters that end a run of plain string content.
constexpr auto kStops = [] {
  std::array<bool, 256> stops{};
  for (int c = 0; c < 0x20; ++c) stops[static_cast<std::size_t>(c)] = true;
  stops['"'] = true;
  stops['\\'] = true;
  return stops;
}();

unsigned filter_bit(std::string_view key) {
  const std::size_t n = key.size();
  if (n == 0) return 0;
  return (static_cast<unsigned>(n) * 7u + static_cast<unsigned char>(key[0]) * 3u +
          static_cast<unsigned char>(key[n - 1])) %
         64u;
}

bool key_less(std::string_view a, std::string_view b) {
  if (!a.empty() && !b.empty() && a[0] != b[0]) return a[0] < b[0];
  return a < b;
}

class Scanner {
 public:
  Scanner(std::string_view s, std::deque<std::string>& storage) : s_(s), storage_(storage) {}

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool at_end() {
    skip_space();
    return i_ == s_.size();
  }

  // A JSON string: a view into the line when it has no escapes (the common case), otherwise
  // decoded into storage. \u escapes are not read here.
  bool string(std::string_view& out) {
    skip_space();
    if (i_ >= s_.size() || s_[i_] != '"') return false;
    const std::size_t start = ++i_;
    // One table lookup per character finds the three that need a decision (the closing quote,
    // an escape, a control character): strings are most of a record's bytes.
    const char* const base = s_.data();
    const std::size_t n = s_.size();
    while (i_ < n && !kStops[static_cast<unsigned char>(base[i_])]) ++i_;
    if (i_ >= n) return false;
    const char c = base[i_];
    if (c == '"') {
      out = s_.substr(start, i_ - start);
      ++i_;
      return true;
    }
    if (c == '\\') return escaped(start, out);
    return false;  // a control character
  }

  bool value(FlatField& f) {
    skip_space();
    if (i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '"') {
      f.kind = FlatField::Kind::string;
      return string(f.text);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      f.kind = FlatField::Kind::integer;
      const auto [end, ec] = std::from_chars(s_.data() + i_, s_.data() + s_.size(), f.number);
      if (ec != std::errc()) return false;
      i_ = static_cast<std::size_t>(end - s_.data());
      // A fraction or an exponent is not an integer: let the full parser see it.
      return i_ >= s_.size() || (s_[i_] != '.' && s_[i_] != 'e' && s_[i_] != 'E');
    }
    struct Word {
      std::string_view text;
      FlatField::Kind kind;
      bool truth;
    };
    static constexpr Word kWords[] = {{"null", FlatField::Kind::null, false},
                                      {"true", FlatField::Kind::boolean, true},
                                      {"false", FlatField::Kind::boolean, false}};
    for (const auto& w : kWords) {
      if (s_.substr(i_, w.text.size()) == w.text) {
        f.kind = w.kind;
        f.number = w.truth ? 1 : 0;
        i_ += w.text.size();
        return true;
      }
    }
    return false;  // an object, an array or not JSON: the full parser decides
  }

 private:
  bool escaped(std::size_t start, std::string_view& out) {
    std::string& text = storage_.emplace_back(s_.substr(start, i_ - start));
    while (i_ < s_.size()) {
      const char c = s_[i_++];
      if (c == '"') {
        out = text;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        text += c;
        continue;
      }
      if (i_ >= s_.size()) return false;
      switch (s_[i_++]) {
        case '"':
          text += '"';
          break;
        case '\\':
          text += '\\';
          break;
        case '/':
          text += '/';
          break;
        case 'n':
          text += '\n';
          break;
        case 't':
          text += '\t';
          break;
        case 'r':
          text += '\r';
          break;
        case 'b':
          text += '\b';
          break;
        case 'f':
          text += '\f';
          break;
        default:
          return false;
      }
    }
    return false;
  }

  std::string_view s_;
  std::size_t i_ = 0;
  std::deque<std::string>& storage_;
};

}  // namespace

bool FlatRecord::parse(std::string_view line) {
  fields_.clear();
  unescaped_.clear();
  Scanner in(line, unescaped_);
  if (!in.eat('{')) return false;
  if (in.eat('}')) return in.at_end();
  // Duplicate keys: none can be while the keys ascend (one comparison each, usually decided by
  // the first character); after that, a 64-bit filter of (length, first and last character)
  // sends only a key whose bit is already set to be compared with the others.
  std::uint64_t seen = 0;
  bool ascending = true;  // jbench's own writers sort their keys: then no key can repeat
  do {
    FlatField f;
    if (!in.string(f.key) || !in.eat(':') || !in.value(f)) return false;
    if (ascending && (fields_.empty() || key_less(fields_.back().key, f.key))) {
      fields_.push_back(f);
      continue;
    }
    if (ascending) {
      // From here on, the filter: every key so far goes into it first.
      ascending = false;
      for (const auto& g : fields_) seen |= std::uint64_t{1} << filter_bit(g.key);
    }
    const unsigned bit = filter_bit(f.key);
    if (seen & (std::uint64_t{1} << bit)) {
      for (const auto& other : fields_) {
        if (other.key == f.key) return false;
      }
    }
    seen |= std::uint64_t{1} << bit;
    fields_.push_back(f);
  } while (in.eat(','));
  return in.eat('}') && in.at_end();
}

const FlatField* FlatRecord::find(std::string_view key) const {
  // Length and first character first: most keys differ there, and a call to memcmp per field
  // was a tenth of a raw file's reading time.
  for (const auto& f : fields_) {
    if (f.key.size() == key.size() && (key.empty() || f.key[0] == key[0]) && f.key == key)
      return &f;
  }
  return nullptr;
}

std::optional<std::string_view> FlatRecord::string(std::string_view key) const {
  const FlatField* f = find(key);
  if (f == nullptr || f->kind != FlatField::Kind::string) return std::nullopt;
  return f->text;
}

std::optional<std::int64_t> FlatRecord::integer(std::string_view key) const {
  const FlatField* f = find(key);
  if (f == nullptr || f->kind != FlatField::Kind::integer) return std::nullopt;
  return f->number;
}

std::optional<std::uint64_t> FlatRecord::decimal(std::string_view key) const {
  const auto text = string(key);
  return text ? stats::parse_decimal_u64(*text) : std::nullopt;
}

bool FlatRecord::is_null(std::string_view key) const {
  const FlatField* f = find(key);
  return f != nullptr && f->kind == FlatField::Kind::null;
}

}  // namespace jbench::events
