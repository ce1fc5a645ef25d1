#include "jbench/oracle/protocol.h"

#include "jbench/oracle/corpus.h"

namespace jbench::oracle {

namespace {

using json = nlohmann::json;

// A breach of the protocol: the line is wrong, not the host.
Error violation(std::string why) { return Error{std::move(why), 0, ErrorKind::input}; }

Result<json> parse_object(std::string_view line) {
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return violation("not a JSON object: " + std::string(line.substr(0, 200)));
  }
  return j;
}

Result<Value> literal_of(const json& v) {
  if (!v.is_string()) {
    return violation("a value is not a string holding an SQL literal: " + v.dump().substr(0, 100));
  }
  const std::string& s = v.get_ref<const std::string&>();
  LiteralParse p = parse_literal(s);
  if (!p.value || p.consumed != s.size()) {
    return violation("a value is not an SQL literal: \"" + s.substr(0, 100) + "\"" +
                     (p.error.empty() ? "" : " (" + p.error + ")"));
  }
  return *p.value;
}

json literals(const std::vector<Value>& values) {
  json out = json::array();
  for (const Value& v : values) out.push_back(to_sql_literal(v));
  return out;
}

}  // namespace

std::string encode_hello(const Hello& h) {
  json j = {{"protocol", kProtocolVersion}, {"engine", h.engine}, {"prepared", h.prepared}};
  if (!h.optimizations.empty()) j["optimizations"] = h.optimizations;
  return j.dump();
}

namespace {

// A JSON array of strings, or why not.
Result<std::vector<std::string>> names_of(const json& j, const char* what) {
  std::vector<std::string> out;
  if (!j.is_array()) return violation(std::string("\"") + what + "\" is not an array of names");
  for (const json& n : j) {
    if (!n.is_string() || n.get<std::string>().empty()) {
      return violation(std::string("\"") + what + "\" holds " + n.dump() + ", not a name");
    }
    out.push_back(n);
  }
  return out;
}

}  // namespace

Result<Hello> decode_hello(std::string_view line) {
  const auto j = parse_object(line);
  if (!j) return j.error();
  auto protocol = j->find("protocol");
  if (protocol == j->end() || !protocol->is_string()) {
    return violation("the first line is not a hello (no \"protocol\"): " +
                     std::string(line.substr(0, 200)));
  }
  if (*protocol != kProtocolVersion) {
    return violation("the engine speaks " + protocol->dump() + ", jbench speaks \"" +
                     std::string(kProtocolVersion) + "\"");
  }
  Hello h;
  if (auto e = j->find("engine"); e != j->end() && e->is_string()) h.engine = *e;
  if (auto p = j->find("prepared"); p != j->end() && p->is_boolean()) h.prepared = *p;
  if (auto o = j->find("optimizations"); o != j->end()) {
    auto names = names_of(*o, "optimizations");
    if (!names) return names.error();
    h.optimizations = std::move(*names);
  }
  return h;
}

std::string encode_request(const RunRequest& r) {
  if (r.switch_off)
    return json{{"op", "switch_off"}, {"id", r.id}, {"names", *r.switch_off}}.dump();
  json j = {{"op", "run"}, {"id", r.id}, {"sql", r.sql}, {"params", literals(r.params)}};
  if (!r.statement.empty()) j["statement"] = r.statement;
  // Invalid UTF-8 in SQL text is replaced rather than thrown on: the engine sees U+FFFD.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string encode_quit() { return json{{"op", "quit"}}.dump(); }

namespace {

Result<std::optional<RunRequest>> decode_switch_off(const json& j) {
  auto id = j.find("id");
  auto names = j.find("names");
  if (id == j.end() || !id->is_number_unsigned() || names == j.end()) {
    return violation("a switch_off needs an unsigned \"id\" and \"names\"");
  }
  auto list = names_of(*names, "names");
  if (!list) return list.error();
  RunRequest r;
  r.id = *id;
  r.switch_off = std::move(*list);
  return std::optional<RunRequest>(std::move(r));
}

}  // namespace

Result<std::optional<RunRequest>> decode_request(std::string_view line) {
  const auto j = parse_object(line);
  if (!j) return j.error();
  std::string op = j->value("op", "");
  if (op == "quit") return std::optional<RunRequest>();
  if (op == "switch_off") return decode_switch_off(*j);
  if (op != "run") return violation("unknown op \"" + op + "\"; expected run, switch_off or quit");
  RunRequest r;
  auto id = j->find("id");
  auto sql = j->find("sql");
  if (id == j->end() || !id->is_number_unsigned() || sql == j->end() || !sql->is_string()) {
    return violation("a run needs an unsigned \"id\" and a string \"sql\"");
  }
  r.id = *id;
  r.sql = *sql;
  if (auto p = j->find("params"); p != j->end()) {
    if (!p->is_array()) return violation("\"params\" is not an array");
    for (const json& v : *p) {
      auto value = literal_of(v);
      if (!value) return value.error();
      r.params.push_back(*value);
    }
  }
  if (auto s = j->find("statement"); s != j->end() && s->is_string()) r.statement = *s;
  return std::optional<RunRequest>(std::move(r));
}

std::string encode_response(std::uint64_t id, const ResultSet& r) {
  json rows = json::array();
  for (const Row& row : r.rows) rows.push_back(literals(row));
  json j = {{"id", id}, {"ok", r.ok()}, {"columns", r.columns}, {"rows", rows}};
  if (r.error) j["error"] = {{"code", r.error->code}, {"message", r.error->message}};
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

// An answer's column names, when it gives them.
Status read_columns(const json& j, ResultSet& r) {
  auto c = j.find("columns");
  if (c == j.end()) return {};
  if (!c->is_array()) return violation("\"columns\" is not an array");
  for (const json& name : *c) {
    if (!name.is_string()) return violation("a column name is not a string");
    r.columns.push_back(name);
  }
  return {};
}

// An answer's rows, each as wide as the columns (or as the first row, without columns).
Status read_rows(const json& j, ResultSet& r) {
  auto rows = j.find("rows");
  if (rows == j.end()) return {};
  if (!rows->is_array()) return violation("\"rows\" is not an array");
  for (const json& row : *rows) {
    if (!row.is_array()) return violation("a row is not an array");
    Row values;
    for (const json& v : row) {
      auto value = literal_of(v);
      if (!value) return value.error();
      values.push_back(std::move(*value));
    }
    std::size_t width =
        r.columns.empty() ? (r.rows.empty() ? values.size() : r.rows[0].size()) : r.columns.size();
    if (values.size() != width) {
      return violation("row " + std::to_string(r.rows.size()) + " has " +
                       std::to_string(values.size()) + " values where " + std::to_string(width) +
                       " were expected");
    }
    r.rows.push_back(std::move(values));
  }
  return {};
}

}  // namespace

Result<ResultSet> decode_response(std::string_view line, std::uint64_t id) {
  const auto j = parse_object(line);
  if (!j) return j.error();
  auto got = j->find("id");
  if (got == j->end() || !got->is_number_unsigned() || *got != id) {
    return violation("the answer is for request " + (got == j->end() ? "none" : got->dump()) +
                     ", not for request " + std::to_string(id));
  }
  auto ok = j->find("ok");
  if (ok == j->end() || !ok->is_boolean()) return violation("the answer has no boolean \"ok\"");
  ResultSet r;
  if (const Status s = read_columns(*j, r); !s) return s.error();
  if (const Status s = read_rows(*j, r); !s) return s.error();
  if (!*ok) {
    auto e = j->find("error");
    if (e == j->end() || !e->is_object() || !e->contains("code") ||
        !(*e)["code"].is_number_integer()) {
      return violation("a failed statement's answer needs \"error\": {\"code\": <integer>, ...}");
    }
    r.error = StatementError{(*e)["code"].get<int>(), e->value("message", "")};
  }
  return r;
}

}  // namespace jbench::oracle
