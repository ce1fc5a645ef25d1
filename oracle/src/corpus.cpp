// The corpus parser (format: docs/oracle-corpus.md). A file is a sequence of records separated
// by blank lines; each record is a header line, optional `params:` / `engine-rule:` lines, SQL,
// and for a query an optional `----` followed by one expected row per line.
#include "jbench/oracle/corpus.h"

#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

namespace jbench::oracle {

namespace {

struct Line {
  std::string_view text;
  std::uint32_t number = 0;  // 1-based
};

// Thrown nowhere: the parser carries its first error in this value and stops.
struct Failure {
  std::uint32_t line = 0;
  std::size_t column = 0;  // 0-based byte offset; reported 1-based
  std::string message;
};

struct Token {
  std::string_view text;
  std::size_t column = 0;  // 0-based
};

std::vector<Token> split_words(std::string_view line) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back({line.substr(start, i - start), start});
  }
  return out;
}

bool blank(std::string_view s) {
  for (char c : s) {
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Comma-separated literals from byte `from` of the line to its end.
std::optional<Failure> parse_values(const Line& line, std::size_t from, std::vector<Value>& out) {
  std::string_view t = line.text;
  std::size_t i = from;
  for (;;) {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
    LiteralParse p = parse_literal(t.substr(i));
    if (!p.value) return Failure{line.number, i + p.consumed, p.error};
    out.push_back(*p.value);
    i += p.consumed;
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
    if (i == t.size()) return std::nullopt;
    if (t[i] != ',') return Failure{line.number, i, "expected ',' between values"};
    ++i;
  }
}

bool kind_fits(char type, const Value& v) {
  switch (type) {
    case 'I':
      return v.kind == ValueKind::integer;
    case 'R':
      return v.kind == ValueKind::real || v.kind == ValueKind::integer;
    case 'T':
      return v.kind == ValueKind::text;
    case 'B':
      return v.kind == ValueKind::blob;
    default:  // 'A': any
      return true;
  }
}

std::optional<Failure> parse_order_options(const std::vector<Token>& words, std::uint32_t line,
                                           Record& r) {
  for (std::size_t w = 2; w < words.size(); ++w) {
    std::string_view word = words[w].text;
    if (w == 2 && (word == "rowsort" || word == "ordered")) {
      r.order = word == "ordered" ? RowOrder::ordered : RowOrder::multiset;
    } else if (starts_with(word, "key=") && r.order == RowOrder::ordered) {
      std::string_view list = word.substr(4);
      std::size_t pos = 0;
      while (pos <= list.size()) {
        std::size_t comma = std::min(list.find(',', pos), list.size());
        std::size_t n = 0;
        auto [end, ec] = std::from_chars(list.data() + pos, list.data() + comma, n);
        if (ec != std::errc() || end != list.data() + comma || n == 0 ||
            n > r.column_types.size()) {
          return Failure{line, words[w].column + 4 + pos,
                         "key= takes 1-based column numbers from 1 to " +
                             std::to_string(r.column_types.size()) + ", separated by ','"};
        }
        r.order_key.push_back(n - 1);
        pos = comma + 1;
      }
    } else if (word == "limit-ties" && r.order == RowOrder::ordered) {
      r.limit_ties = true;
    } else if (starts_with(word, "key=") || word == "limit-ties") {
      return Failure{line, words[w].column, std::string(word) + " needs 'ordered' before it"};
    } else {
      return Failure{line, words[w].column,
                     "unknown query option '" + std::string(word) +
                         "'; expected rowsort, ordered, key=N[,N...] or limit-ties"};
    }
  }
  return std::nullopt;
}

std::optional<Failure> parse_header(const Line& line, Record& r) {
  std::vector<Token> words = split_words(line.text);
  std::string_view head = words[0].text;
  if (head == "statement") {
    if (words.size() < 2 || (words[1].text != "ok" && words[1].text != "error")) {
      std::size_t col = words.size() < 2 ? line.text.size() : words[1].column;
      return Failure{line.number, col, "statement must be followed by 'ok' or 'error'"};
    }
    if (words.size() > 2) {
      return Failure{line.number, words[2].column, "nothing may follow 'statement ok|error'"};
    }
    r.kind = words[1].text == "ok" ? RecordKind::statement_ok : RecordKind::statement_error;
    return std::nullopt;
  }
  if (head == "query") {
    r.kind = RecordKind::query;
    if (words.size() < 2) {
      return Failure{line.number, line.text.size(),
                     "query needs its column types, one letter per column (I, R, T, B or A)"};
    }
    for (std::size_t i = 0; i < words[1].text.size(); ++i) {
      char c = words[1].text[i];
      if (c != 'I' && c != 'R' && c != 'T' && c != 'B' && c != 'A') {
        return Failure{line.number, words[1].column + i,
                       std::string("unknown column type '") + c +
                           "'; use I (integer), R (real), T (text), B (blob) or A (any)"};
      }
    }
    r.column_types = std::string(words[1].text);
    return parse_order_options(words, line.number, r);
  }
  return Failure{line.number, words[0].column,
                 "unknown record '" + std::string(head) + "'; expected 'statement' or 'query'"};
}

// `prepared: <name>`: a name of letters, digits, '_' and '-'.
std::optional<Failure> parse_prepared(const Line& line, Record& r) {
  std::string_view t = line.text;
  std::size_t start = 9;
  while (start < t.size() && t[start] == ' ') ++start;
  std::size_t end = t.size();
  while (end > start && t[end - 1] == ' ') --end;
  if (start == end) return Failure{line.number, start, "write 'prepared: <name>'"};
  for (std::size_t i = start; i < end; ++i) {
    unsigned char c = static_cast<unsigned char>(t[i]);
    if (!std::isalnum(c) && c != '_' && c != '-') {
      return Failure{line.number, i,
                     "a prepared statement's name is letters, digits, '_' and '-' only"};
    }
  }
  if (!r.prepared.empty()) {
    return Failure{line.number, 0, "a record names at most one prepared statement"};
  }
  r.prepared = std::string(t.substr(start, end - start));
  return std::nullopt;
}

std::optional<Failure> parse_meta(const Line& line, Record& r) {
  std::string_view t = line.text;
  if (starts_with(t, "prepared:")) return parse_prepared(line, r);
  if (starts_with(t, "params:")) {
    std::vector<Value> values;
    if (auto f = parse_values(line, 7, values)) return f;
    r.params.insert(r.params.end(), values.begin(), values.end());
    return std::nullopt;
  }
  // engine-rule: <engine>: <rule in words>
  std::size_t start = 12;
  while (start < t.size() && t[start] == ' ') ++start;
  std::size_t colon = t.find(':', start);
  if (colon == std::string_view::npos || colon == start) {
    return Failure{line.number, start, "write 'engine-rule: <engine>: <what it does>'"};
  }
  std::size_t rule = colon + 1;
  while (rule < t.size() && t[rule] == ' ') ++rule;
  if (rule == t.size()) return Failure{line.number, rule, "the engine rule says nothing"};
  r.engine_rules.push_back(
      {std::string(t.substr(start, colon - start)), std::string(t.substr(rule))});
  return std::nullopt;
}

std::optional<Failure> parse_row(const Line& line, Record& r) {
  Row row;
  if (auto f = parse_values(line, 0, row)) return f;
  if (row.size() != r.column_types.size()) {
    return Failure{line.number, 0,
                   "the row has " + std::to_string(row.size()) + " values, the query declares " +
                       std::to_string(r.column_types.size()) + " columns"};
  }
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i].kind != ValueKind::null && !kind_fits(r.column_types[i], row[i])) {
      return Failure{line.number, 0,
                     "value " + std::to_string(i + 1) + " (" + to_sql_literal(row[i]) +
                         ") does not fit column type '" + r.column_types[i] + "'"};
    }
  }
  r.expected.push_back(std::move(row));
  return std::nullopt;
}

bool is_meta(std::string_view t) {
  return starts_with(t, "params:") || starts_with(t, "engine-rule:") || starts_with(t, "prepared:");
}

std::optional<Failure> parse_record(const std::vector<Line>& lines, Record& r) {
  // params: and engine-rule: lines may come before the header or after it, never after the SQL.
  std::size_t i = 0;
  for (; i < lines.size() && is_meta(lines[i].text); ++i) {
    if (auto f = parse_meta(lines[i], r)) return f;
  }
  if (i == lines.size()) {
    return Failure{lines.back().number + 1, 0,
                   "params:, prepared: and engine-rule: need a 'statement' or 'query' record"};
  }
  if (auto f = parse_header(lines[i], r)) return f;
  const std::uint32_t header_line = lines[i].number;
  for (++i; i < lines.size() && is_meta(lines[i].text); ++i) {
    if (auto f = parse_meta(lines[i], r)) return f;
  }
  std::string sql;
  for (; i < lines.size() && lines[i].text != "----"; ++i) {
    if (is_meta(lines[i].text)) {
      return Failure{lines[i].number, 0,
                     "params:, prepared: and engine-rule: lines go before the SQL"};
    }
    if (!sql.empty()) sql += '\n';
    sql += lines[i].text;
  }
  if (sql.empty()) {
    std::uint32_t at = i < lines.size() ? lines[i].number : lines.back().number + 1;
    return Failure{at, 0, "the record has no SQL"};
  }
  r.sql = std::move(sql);
  if (r.limit_ties) {
    r.unlimited = without_trailing_limit(r.sql, r.params);
    if (!r.unlimited) {
      return Failure{header_line, 0,
                     "limit-ties needs the statement to end in LIMIT <n> or LIMIT ?N, N its last "
                     "parameter: the oracle runs it without the LIMIT to check the rows of the "
                     "tie group the LIMIT cuts"};
    }
  }
  if (i == lines.size()) return std::nullopt;
  if (r.kind != RecordKind::query) {
    return Failure{lines[i].number, 0, "only a query has an expected result ('----')"};
  }
  r.has_expected = true;
  for (++i; i < lines.size(); ++i) {
    if (auto f = parse_row(lines[i], r)) return f;
  }
  return std::nullopt;
}

}  // namespace

ParsedCorpus parse_corpus(std::string_view text, const std::string& file) {
  Corpus corpus{file, {}};
  std::vector<Line> record;
  std::uint32_t number = 0;
  std::size_t pos = 0;
  auto flush = [&]() -> std::optional<Failure> {
    if (record.empty()) return std::nullopt;
    Record r;
    r.where = {file, record[0].number, 1};
    auto f = parse_record(record, r);
    record.clear();
    if (f) return f;
    corpus.records.push_back(std::move(r));
    return std::nullopt;
  };
  while (pos <= text.size()) {
    std::size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF files read the same
    ++number;
    pos = end + 1;
    std::optional<Failure> f;
    if (blank(line)) {
      f = flush();
    } else if (line[0] != '#') {
      record.push_back({line, number});
    }
    if (f) {
      Diagnostic d{{file, f->line, static_cast<std::uint32_t>(f->column + 1)}, "", f->message};
      return {std::nullopt, d};
    }
    if (end == text.size()) break;
  }
  if (auto f = flush()) {
    Diagnostic d{{file, f->line, static_cast<std::uint32_t>(f->column + 1)}, "", f->message};
    return {std::nullopt, d};
  }
  // A prepared statement is one SQL text: re-executing it with other SQL would be a new
  // statement under an old name, which no engine does.
  std::map<std::string, const Record*, std::less<>> first_use;
  for (const Record& r : corpus.records) {
    if (r.prepared.empty()) continue;
    auto [it, fresh] = first_use.emplace(r.prepared, &r);
    if (!fresh && it->second->sql != r.sql) {
      Diagnostic d{r.where, "",
                   "prepared statement '" + r.prepared + "' was given other SQL at line " +
                       std::to_string(it->second->where.line) +
                       "; a prepared statement is re-executed with its own SQL"};
      return {std::nullopt, d};
    }
  }
  return {std::move(corpus), std::nullopt};
}

ParsedCorpus read_corpus_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return {std::nullopt, Diagnostic{{path, 0, 0}, "", "cannot read the corpus file"}};
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_corpus(text.str(), path);
}

Normalization normalization_of(const Record& query) {
  Normalization n;
  n.order = query.order;
  n.order_key = query.order_key;
  n.limit_ties = query.limit_ties;
  return n;
}

ResultSet expected_of(const Record& query) {
  ResultSet r;
  r.rows = query.expected;
  return r;
}

}  // namespace jbench::oracle
