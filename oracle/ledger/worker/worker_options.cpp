#include "worker_options.h"

#include <charconv>
#include <string_view>

namespace jbench::oracle::ledger_worker {
namespace {

template <typename Int>
bool parse_number(std::string_view text, Int& out) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc() && p == text.data() + text.size();
}

}  // namespace

std::optional<WorkerOptions> parse_worker_options(int argc, char** argv, std::string& error) {
  WorkerOptions o;
  if (argc < 2) {
    error = "usage: jbench-ledger-worker writer|reader --db FILE ...";
    return std::nullopt;
  }
  o.role = argv[1];
  if (o.role != "writer" && o.role != "reader") {
    error = "unknown role '" + o.role + "' (writer or reader)";
    return std::nullopt;
  }
  for (int i = 2; i < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) {
      error = "option " + std::string(flag) + " needs a value";
      return std::nullopt;
    }
    const std::string_view value = argv[i + 1];
    bool ok = true;
    if (flag == "--db") {
      o.db_path = value;
    } else if (flag == "--ledger") {
      o.ledger_path = value;
    } else if (flag == "--writer" || flag == "--index") {
      ok = parse_number(value, o.index);
    } else if (flag == "--incarnation") {
      ok = parse_number(value, o.incarnation);
    } else if (flag == "--transactions") {
      ok = parse_number(value, o.transactions);
    } else if (flag == "--seed") {
      ok = parse_number(value, o.seed);
    } else if (flag == "--keys-per-writer") {
      ok = parse_number(value, o.layout.keys_per_writer) && o.layout.keys_per_writer > 0;
    } else if (flag == "--accounts") {
      ok = parse_number(value, o.layout.accounts) && o.layout.accounts > 0;
    } else if (flag == "--initial-balance") {
      ok = parse_number(value, o.layout.initial_balance);
    } else if (flag == "--deadline-ms") {
      ok = parse_number(value, o.deadline_ms);
    } else if (flag == "--variant") {
      const auto v = ledger_variant_from(value);
      ok = v.has_value();
      if (v) o.layout.variant = *v;
    } else if (flag == "--journal") {
      const auto j = journal_mode_from(value);
      ok = j.has_value();
      if (j) o.journal = *j;
    } else if (flag == "--hold-end") {
      ok = value == "yes" || value == "no";
      o.hold_end = value == "yes";
    } else if (flag == "--broken") {
      const auto b = broken_writer_from(value);
      ok = b.has_value();
      if (b) o.broken = *b;
    } else {
      error = "unknown option " + std::string(flag);
      return std::nullopt;
    }
    if (!ok) {
      error = "bad value '" + std::string(value) + "' for " + std::string(flag);
      return std::nullopt;
    }
  }
  if (o.db_path.empty() || (o.role == "writer" && o.ledger_path.empty())) {
    error = "--db (and, for a writer, --ledger) are required";
    return std::nullopt;
  }
  return o;
}

}  // namespace jbench::oracle::ledger_worker
