#include "jbench/oracle/protocol.h"

#include "jbench/oracle/corpus.h"

namespace jbench::oracle {

namespace {

using json = nlohmann::json;

std::optional<json> parse_object(std::string_view line, std::string& error) {
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "not a JSON object: " + std::string(line.substr(0, 200));
    return std::nullopt;
  }
  return j;
}

std::optional<Value> literal_of(const json& v, std::string& error) {
  if (!v.is_string()) {
    error = "a value is not a string holding an SQL literal: " + v.dump().substr(0, 100);
    return std::nullopt;
  }
  const std::string& s = v.get_ref<const std::string&>();
  LiteralParse p = parse_literal(s);
  if (!p.value || p.consumed != s.size()) {
    error = "a value is not an SQL literal: \"" + s.substr(0, 100) + "\"" +
            (p.error.empty() ? "" : " (" + p.error + ")");
    return std::nullopt;
  }
  return p.value;
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
std::optional<std::vector<std::string>> names_of(const json& j, const char* what,
                                                 std::string& error) {
  std::vector<std::string> out;
  if (!j.is_array()) {
    error = std::string("\"") + what + "\" is not an array of names";
    return std::nullopt;
  }
  for (const json& n : j) {
    if (!n.is_string() || n.get<std::string>().empty()) {
      error = std::string("\"") + what + "\" holds " + n.dump() + ", not a name";
      return std::nullopt;
    }
    out.push_back(n);
  }
  return out;
}

}  // namespace

Decoded<Hello> decode_hello(std::string_view line) {
  Decoded<Hello> d;
  auto j = parse_object(line, d.error);
  if (!j) return d;
  auto protocol = j->find("protocol");
  if (protocol == j->end() || !protocol->is_string()) {
    d.error =
        "the first line is not a hello (no \"protocol\"): " + std::string(line.substr(0, 200));
    return d;
  }
  if (*protocol != kProtocolVersion) {
    d.error = "the engine speaks " + protocol->dump() + ", jbench speaks \"" +
              std::string(kProtocolVersion) + "\"";
    return d;
  }
  Hello h;
  if (auto e = j->find("engine"); e != j->end() && e->is_string()) h.engine = *e;
  if (auto p = j->find("prepared"); p != j->end() && p->is_boolean()) h.prepared = *p;
  if (auto o = j->find("optimizations"); o != j->end()) {
    auto names = names_of(*o, "optimizations", d.error);
    if (!names) return d;
    h.optimizations = std::move(*names);
  }
  d.value = h;
  return d;
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

Decoded<RunRequest> decode_switch_off(const json& j) {
  Decoded<RunRequest> d;
  auto id = j.find("id");
  auto names = j.find("names");
  if (id == j.end() || !id->is_number_unsigned() || names == j.end()) {
    d.error = "a switch_off needs an unsigned \"id\" and \"names\"";
    return d;
  }
  auto list = names_of(*names, "names", d.error);
  if (!list) return d;
  RunRequest r;
  r.id = *id;
  r.switch_off = std::move(*list);
  d.value = std::move(r);
  return d;
}

}  // namespace

Decoded<RunRequest> decode_request(std::string_view line, bool& quit) {
  Decoded<RunRequest> d;
  quit = false;
  auto j = parse_object(line, d.error);
  if (!j) return d;
  std::string op = j->value("op", "");
  if (op == "quit") {
    quit = true;
    return d;
  }
  if (op == "switch_off") return decode_switch_off(*j);
  if (op != "run") {
    d.error = "unknown op \"" + op + "\"; expected run, switch_off or quit";
    return d;
  }
  RunRequest r;
  auto id = j->find("id");
  auto sql = j->find("sql");
  if (id == j->end() || !id->is_number_unsigned() || sql == j->end() || !sql->is_string()) {
    d.error = "a run needs an unsigned \"id\" and a string \"sql\"";
    return d;
  }
  r.id = *id;
  r.sql = *sql;
  if (auto p = j->find("params"); p != j->end()) {
    if (!p->is_array()) {
      d.error = "\"params\" is not an array";
      return d;
    }
    for (const json& v : *p) {
      auto value = literal_of(v, d.error);
      if (!value) return d;
      r.params.push_back(*value);
    }
  }
  if (auto s = j->find("statement"); s != j->end() && s->is_string()) r.statement = *s;
  d.value = std::move(r);
  return d;
}

std::string encode_response(std::uint64_t id, const ResultSet& r) {
  json rows = json::array();
  for (const Row& row : r.rows) rows.push_back(literals(row));
  json j = {{"id", id}, {"ok", r.ok()}, {"columns", r.columns}, {"rows", rows}};
  if (r.error) j["error"] = {{"code", r.error->code}, {"message", r.error->message}};
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Decoded<ResultSet> decode_response(std::string_view line, std::uint64_t id) {
  Decoded<ResultSet> d;
  auto j = parse_object(line, d.error);
  if (!j) return d;
  auto got = j->find("id");
  if (got == j->end() || !got->is_number_unsigned() || *got != id) {
    d.error = "the answer is for request " + (got == j->end() ? "none" : got->dump()) +
              ", not for request " + std::to_string(id);
    return d;
  }
  auto ok = j->find("ok");
  if (ok == j->end() || !ok->is_boolean()) {
    d.error = "the answer has no boolean \"ok\"";
    return d;
  }
  ResultSet r;
  if (auto c = j->find("columns"); c != j->end()) {
    if (!c->is_array()) {
      d.error = "\"columns\" is not an array";
      return d;
    }
    for (const json& name : *c) {
      if (!name.is_string()) {
        d.error = "a column name is not a string";
        return d;
      }
      r.columns.push_back(name);
    }
  }
  if (auto rows = j->find("rows"); rows != j->end()) {
    if (!rows->is_array()) {
      d.error = "\"rows\" is not an array";
      return d;
    }
    for (const json& row : *rows) {
      if (!row.is_array()) {
        d.error = "a row is not an array";
        return d;
      }
      Row values;
      for (const json& v : row) {
        auto value = literal_of(v, d.error);
        if (!value) return d;
        values.push_back(std::move(*value));
      }
      std::size_t width = r.columns.empty() ? (r.rows.empty() ? values.size() : r.rows[0].size())
                                            : r.columns.size();
      if (values.size() != width) {
        d.error = "row " + std::to_string(r.rows.size()) + " has " + std::to_string(values.size()) +
                  " values where " + std::to_string(width) + " were expected";
        return d;
      }
      r.rows.push_back(std::move(values));
    }
  }
  if (!*ok) {
    auto e = j->find("error");
    if (e == j->end() || !e->is_object() || !e->contains("code") ||
        !(*e)["code"].is_number_integer()) {
      d.error = "a failed statement's answer needs \"error\": {\"code\": <integer>, ...}";
      return d;
    }
    r.error = StatementError{(*e)["code"].get<int>(), e->value("message", "")};
  }
  d.value = std::move(r);
  return d;
}

}  // namespace jbench::oracle
