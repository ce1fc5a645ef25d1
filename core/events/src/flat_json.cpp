#include "flat_json.h"

#include <charconv>

namespace jbench::events_detail {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

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

  // A JSON string with the simple escapes; \u escapes send the line to the full parser.
  bool string(std::string& out) {
    skip_space();
    if (i_ >= s_.size() || s_[i_] != '"') return false;
    ++i_;
    out.clear();
    while (i_ < s_.size()) {
      const char c = s_[i_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) return false;
      switch (s_[i_++]) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        default:
          return false;
      }
    }
    return false;
  }

  bool value(FlatValue& v) {
    skip_space();
    if (i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '"') {
      v.kind = FlatValue::Kind::string;
      return string(v.text);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = FlatValue::Kind::integer;
      const auto [end, ec] = std::from_chars(s_.data() + i_, s_.data() + s_.size(), v.number);
      if (ec != std::errc()) return false;
      i_ = static_cast<std::size_t>(end - s_.data());
      // A fraction or an exponent is not an integer: let the full parser see it.
      return i_ >= s_.size() || (s_[i_] != '.' && s_[i_] != 'e' && s_[i_] != 'E');
    }
    struct Word {
      std::string_view text;
      FlatValue::Kind kind;
      bool truth;
    };
    static constexpr Word kWords[] = {{"null", FlatValue::Kind::null, false},
                                      {"true", FlatValue::Kind::boolean, true},
                                      {"false", FlatValue::Kind::boolean, false}};
    for (const auto& w : kWords) {
      if (s_.substr(i_, w.text.size()) == w.text) {
        v.kind = w.kind;
        v.number = w.truth ? 1 : 0;
        i_ += w.text.size();
        return true;
      }
    }
    return false;  // an object, an array or not JSON: the full parser decides
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

std::optional<std::vector<FlatField>> parse_flat_object(std::string_view line) {
  Scanner in(line);
  std::vector<FlatField> fields;
  if (!in.eat('{')) return std::nullopt;
  if (in.eat('}')) return in.at_end() ? std::optional(fields) : std::nullopt;
  do {
    FlatField f;
    if (!in.string(f.key) || !in.eat(':') || !in.value(f.value)) return std::nullopt;
    for (const auto& other : fields) {
      if (other.key == f.key) return std::nullopt;
    }
    fields.push_back(std::move(f));
  } while (in.eat(','));
  if (!in.eat('}') || !in.at_end()) return std::nullopt;
  return fields;
}

const FlatValue* find(const std::vector<FlatField>& fields, std::string_view key) {
  for (const auto& f : fields) {
    if (f.key == key) return &f.value;
  }
  return nullptr;
}

}  // namespace jbench::events_detail
