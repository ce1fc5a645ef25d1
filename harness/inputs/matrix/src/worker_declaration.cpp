#include "jbench/matrix/worker_declaration.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "decode_parts.h"
#include "jbench/common/file_name.h"
#include "jbench/matrix/param_override.h"
#include "jbench/matrix/yaml_tree.h"

namespace jbench {
namespace {

using Json = nlohmann::json;

constexpr std::size_t kMaxDeclaredParams = 64;
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53: exact in a JSON reader's double

// A name usable as a YAML key and a JSON field: [a-z][a-z0-9_]{0,63}.
bool is_param_name(std::string_view s) {
  if (s.empty() || s.size() > 64 || s[0] < 'a' || s[0] > 'z') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::optional<ParamSpec::Type> type_named(const std::string& name) {
  if (name == "integer") return ParamSpec::Type::integer;
  if (name == "number") return ParamSpec::Type::number;
  if (name == "choice") return ParamSpec::Type::choice;
  if (name == "file_name") return ParamSpec::Type::file_name;
  return std::nullopt;
}

// A numeric bound or default: an integer type takes whole numbers 0 .. 2^53 only.
std::optional<double> bound(const Json& v, ParamSpec::Type type) {
  if (type == ParamSpec::Type::integer) {
    if (!v.is_number_integer() || v.is_number_float()) return std::nullopt;
    if (v.is_number_unsigned()) {
      const auto u = v.get<std::uint64_t>();
      if (static_cast<double>(u) > kMaxExactInteger) return std::nullopt;
      return static_cast<double>(u);
    }
    const auto i = v.get<std::int64_t>();
    if (i < 0) return std::nullopt;
    return static_cast<double>(i);
  }
  if (!v.is_number()) return std::nullopt;
  const double d = v.get<double>();
  return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

// What is wrong with the describe line: the worker's input to jbench.
Error wrong(std::string why) { return Error{std::move(why), 0, ErrorKind::input}; }

// A numeric parameter's `min` and `max` (a file name has none).
Status read_bounds(const Json& p, const std::string& at, ParamSpec& spec) {
  if (spec.type != ParamSpec::Type::integer && spec.type != ParamSpec::Type::number) return {};
  const auto min = p.contains("min") ? bound(p["min"], spec.type) : std::nullopt;
  const auto max = p.contains("max") ? bound(p["max"], spec.type) : std::nullopt;
  spec.min = min.value_or(1);
  spec.max = max.value_or(0);
  if (!min || !max || spec.min > spec.max) {
    return wrong(at + (spec.type == ParamSpec::Type::integer
                           ? ": min and max are required, whole numbers 0..2^53, min <= max"
                           : ": min and max are required, finite numbers, min <= max"));
  }
  return {};
}

// `default`, optional: of the parameter's type, within its range or choices.
Status read_default(const Json& p, const std::string& at, ParamSpec& spec) {
  if (!p.contains("default")) return {};
  const Json& v = p["default"];
  switch (spec.type) {
    case ParamSpec::Type::integer:
    case ParamSpec::Type::number: {
      const auto x = bound(v, spec.type);
      if (!x || *x < spec.min || *x > spec.max) {
        return wrong(at + ".default: a value of its type within min..max");
      }
      spec.default_value = spec.type == ParamSpec::Type::integer
                               ? ParamValue(static_cast<std::int64_t>(*x))
                               : ParamValue(*x);
      break;
    }
    case ParamSpec::Type::choice:
      if (!v.is_string() || std::find(spec.choices.begin(), spec.choices.end(),
                                      v.get<std::string>()) == spec.choices.end()) {
        return wrong(at + ".default: one of its choices");
      }
      spec.default_value = v.get<std::string>();
      break;
    case ParamSpec::Type::file_name:
      if (!v.is_string() || !check_plain_file_name(v.get<std::string>())) {
        return wrong(at + ".default: a plain file name");
      }
      spec.default_value = v.get<std::string>();
      break;
  }
  return {};
}

}  // namespace

// `traits`, optional: what the collectors must know of the worker's target.
Status WorkerDeclaration::read_traits(const Json& doc, WorkerDeclaration& d) {
  if (!doc.contains("traits")) return {};
  const Json& t = doc["traits"];
  if (!t.is_object()) return wrong("traits: expected an object");
  if (t.contains("gc_events")) {
    if (!t["gc_events"].is_boolean()) return wrong("traits.gc_events: true or false");
    d.gc_events_ = t["gc_events"].get<bool>();
  }
  if (t.contains("allocations")) {
    const Json& a = t["allocations"];
    if (!a.is_string() || (a != "native" && a != "runtime")) {
      return wrong(
          "traits.allocations: \"native\" (sampled by jbench's LD_PRELOAD sampler) or "
          "\"runtime\" (the worker reports its own through the trace bridge)");
    }
    d.runtime_allocates_ = a == "runtime";
  }
  return {};
}

// One declared parameter, `at` its path ("params[3]"): appended to d.params_, or why not.
Status WorkerDeclaration::read_param(const Json& p, const std::string& at, WorkerDeclaration& d) {
  if (!p.is_object()) return wrong(at + ": expected an object");
  const std::string name = p.value("name", "");
  if (!is_param_name(name)) return wrong(at + ".name: 1 to 64 of a-z 0-9 _, from a letter");
  if (name == "page_cache_kib") {
    return wrong(at + ".name: page_cache_kib is the dataset's, sent by the harness");
  }
  for (const auto& earlier : d.params_) {
    if (earlier.key == name) return wrong(fmt::format("{}.name: '{}' is declared twice", at, name));
  }
  const auto type = type_named(p.value("type", ""));
  if (!type) return wrong(at + ".type: integer, number, choice or file_name");
  const std::string meaning = p.value("meaning", "");
  if (meaning.empty()) return wrong(at + ".meaning: say what the parameter does");
  ParamSpec spec{d.text(name), *type, 0, 0, {}, std::monostate{}, {}};
  spec.meaning = d.text(meaning);
  Status why =
      *type == ParamSpec::Type::choice ? read_choices(p, at, d, spec) : read_bounds(p, at, spec);
  if (why) why = read_default(p, at, spec);
  if (!why) return why;
  d.params_.push_back(spec);
  return {};
}

// A choice parameter's `choices`: distinct non-empty strings, kept in `d`.
Status WorkerDeclaration::read_choices(const Json& p, const std::string& at, WorkerDeclaration& d,
                                       ParamSpec& spec) {
  if (!p.contains("choices") || !p["choices"].is_array() || p["choices"].empty()) {
    return wrong(at + ".choices: a non-empty list of strings");
  }
  auto& views = d.choices_.emplace_back();
  for (const auto& c : p["choices"]) {
    if (!c.is_string() || c.get_ref<const std::string&>().empty()) {
      return wrong(at + ".choices: a non-empty list of strings");
    }
    if (std::find(views.begin(), views.end(), c.get<std::string>()) != views.end()) {
      return wrong(fmt::format("{}.choices: '{}' twice", at, c.get<std::string>()));
    }
    views.push_back(d.text(c.get<std::string>()));
  }
  spec.choices = views;
  return {};
}

Result<std::shared_ptr<const WorkerDeclaration>> parse_worker_declaration(std::string_view line) {
  const Json doc = Json::parse(line, nullptr, false);
  if (!doc.is_object()) return wrong("the describe line is not a JSON object");
  if (doc.value("type", "") != "describe") return wrong("type: expected \"describe\"");
  if (!doc.contains("protocol") || !doc["protocol"].is_number_integer() ||
      doc["protocol"].get<std::int64_t>() != kWorkerProtocolVersion) {
    return wrong(
        fmt::format("protocol: this jbench speaks worker protocol {}", kWorkerProtocolVersion));
  }
  if (!doc.contains("worker") || !doc["worker"].is_string() ||
      !decode::is_identifier(doc["worker"].get_ref<const std::string&>())) {
    return wrong("worker: a name of 1 to 32 of a-z 0-9 _ - is required");
  }
  if (!doc.contains("params") || !doc["params"].is_array()) {
    return wrong("params: a list of the worker's parameters is required (it may be empty)");
  }
  const Json& params = doc["params"];
  if (params.size() > kMaxDeclaredParams) {
    return wrong(fmt::format("params: at most {} parameters", kMaxDeclaredParams));
  }
  auto d = std::make_shared<WorkerDeclaration>();
  d->line_ = std::string(line);
  d->worker_ = doc["worker"].get<std::string>();
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto read = WorkerDeclaration::read_param(params[i], fmt::format("params[{}]", i), *d);
    if (!read) return read.error();
  }
  if (const auto read = WorkerDeclaration::read_traits(doc, *d); !read) return read.error();
  const std::string meaning = doc.value("meaning", "");
  d->kind_ = WorkloadKind{d->text(d->worker_), d->text(meaning.empty() ? d->worker_ : meaning),
                          d->params_, kProtocolAxes};
  return std::shared_ptr<const WorkerDeclaration>(std::move(d));
}

std::vector<Diagnostic> declare_workload(Matrix& m,
                                         std::shared_ptr<const WorkerDeclaration> declaration) {
  std::vector<Diagnostic> out;
  // The matrix is read again for the locations of its parameters: Matrix keeps values only.
  yaml::Tree tree;
  if (!decode::load_matrix_tree(m.source_text, m.file, tree, out)) return out;
  const yaml::Node* workload = tree.root.find("workload");
  const yaml::Node* params = workload ? workload->find("params") : nullptr;
  decode::Context ctx(m.file, out);
  // Its parameter axes were kept as written: now each value is checked and labelled.
  Matrix declared = m;
  declared.workload.params.clear();
  if (const yaml::Node* axes = tree.root.find("axes")) {
    decode::decode_param_axes(ctx, *axes, &declaration->kind(), declared);
  }
  decode::decode_params(ctx, params, declaration->kind(), declared);
  if (out.empty()) {
    declared.workload.declaration = std::move(declaration);
    m = std::move(declared);
  }
  return out;
}

Status declare_from_plan(Matrix& m, const Json& plan) {
  const Json* d = &plan;
  for (const char* key : {"matrix", "workload", "declaration"}) {
    if (!d->is_object() || !d->contains(key)) {
      return wrong(
          "plan.json keeps no declaration of the process worker (matrix.workload.declaration)");
    }
    d = &(*d)[key];
  }
  auto declared = parse_worker_declaration(d->dump());
  if (!declared) return declared.error().within("plan.json's declaration of the process worker");
  const auto problems = declare_workload(m, std::move(*declared));
  if (!problems.empty()) return wrong(problems.front().message);
  return {};
}

std::vector<std::string> parameter_differences(const WorkloadKind& expected,
                                               const WorkloadKind& declared) {
  std::vector<std::string> out;
  const std::size_t n = std::max(expected.params.size(), declared.params.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (i >= declared.params.size()) {
      out.push_back(fmt::format("{}: not declared", expected.params[i].key));
      continue;
    }
    const ParamSpec& d = declared.params[i];
    if (i >= expected.params.size()) {
      out.push_back(fmt::format("{}: declared, not expected", d.key));
      continue;
    }
    const ParamSpec& e = expected.params[i];
    if (e.key != d.key) {
      out.push_back(fmt::format("parameter {}: '{}' expected, '{}' declared", i, e.key, d.key));
      continue;
    }
    if (e.type != d.type) out.push_back(fmt::format("{}: another type", e.key));
    if (e.min != d.min || e.max != d.max) {
      out.push_back(fmt::format("{}: range {}..{} expected, {}..{} declared", e.key, e.min, e.max,
                                d.min, d.max));
    }
    if (!std::equal(e.choices.begin(), e.choices.end(), d.choices.begin(), d.choices.end())) {
      out.push_back(fmt::format("{}: other choices", e.key));
    }
    if (param_value_text(e.default_value) != param_value_text(d.default_value)) {
      out.push_back(fmt::format("{}: default {} expected, {} declared", e.key,
                                param_value_text(e.default_value),
                                param_value_text(d.default_value)));
    }
  }
  return out;
}

const WorkloadKind* workload_kind_of(const Workload& w) {
  if (w.declaration) return &w.declaration->kind();
  return find_workload_kind(w.kind);
}

}  // namespace jbench
