#include "replay.h"

namespace jbench::oracle {
namespace {

std::string who(std::uint64_t writer, std::uint64_t seq) {
  return "writer " + std::to_string(writer) + " seq " + std::to_string(seq);
}

}  // namespace

Replay::Replay(const LedgerLayout& layout) : layout_(layout) {
  if (layout.variant == LedgerVariant::keyed) {
    keys_.resize(layout.writers * layout.keys_per_writer);
  } else {
    balances_.assign(layout.accounts, layout.initial_balance);
  }
}

void Replay::apply(std::uint64_t writer, std::uint64_t seq, std::string_view body,
                   LedgerVerdict& v) {
  if (layout_.variant == LedgerVariant::keyed) {
    writes_.clear();
    if (!parse_keyed_body(body, writes_)) {
      ++v.state_mismatches;
      v.add_finding(who(writer, seq) + ": the body does not parse as key=value writes");
      return;
    }
    const auto first = static_cast<std::int64_t>(writer * layout_.keys_per_writer);
    const auto end = first + static_cast<std::int64_t>(layout_.keys_per_writer);
    for (const auto& w : writes_) {
      if (w.key < first || w.key >= end) {
        ++v.state_mismatches;
        v.add_finding(who(writer, seq) + ": writes key " + std::to_string(w.key) +
                      ", outside its own range");
        continue;
      }
      keys_[static_cast<std::size_t>(w.key)] = {true, w.value, seq};
    }
    return;
  }
  transfers_.clear();
  if (!parse_bank_body(body, transfers_)) {
    ++v.state_mismatches;
    v.add_finding(who(writer, seq) + ": the body does not parse as transfers");
    return;
  }
  const auto accounts = static_cast<std::int64_t>(layout_.accounts);
  for (const auto& t : transfers_) {
    if (t.from < 0 || t.from >= accounts || t.to < 0 || t.to >= accounts) {
      ++v.state_mismatches;
      v.add_finding(who(writer, seq) + ": a transfer names an account outside the layout");
      continue;
    }
    balances_[static_cast<std::size_t>(t.from)] -= t.amount;
    balances_[static_cast<std::size_t>(t.to)] += t.amount;
  }
}

Status Replay::compare(const ledger_sql::Db& db, LedgerVerdict& v) const {
  return layout_.variant == LedgerVariant::keyed ? compare_keys(db, v) : compare_balances(db, v);
}

Status Replay::compare_keys(const ledger_sql::Db& db, LedgerVerdict& v) const {
  ledger_sql::Stmt rows;
  if (rows.prepare(db, "SELECT key, value, writer, seq FROM kv ORDER BY key") != SQLITE_OK) {
    return Error{"cannot read kv: " + db.message()};
  }
  std::vector<bool> seen(keys_.size(), false);
  int rc;
  while ((rc = rows.step()) == SQLITE_ROW) {
    const std::int64_t key = rows.int_at(0);
    const std::int64_t value = rows.int_at(1);
    const auto seq = static_cast<std::uint64_t>(rows.int_at(3));
    const std::string at = "key " + std::to_string(key);
    if (key < 0 || static_cast<std::size_t>(key) >= keys_.size()) {
      ++v.state_mismatches;
      v.add_finding(at + ": outside every writer's range");
      continue;
    }
    const auto index = static_cast<std::size_t>(key);
    seen[index] = true;
    const KeyState& expected = keys_[index];
    if (!expected.written) {
      ++v.state_mismatches;
      v.add_finding(at + " = " + std::to_string(value) + " (seq " + std::to_string(seq) +
                    "): in the database, written by no accepted transaction");
    } else if (expected.value != value || expected.seq != seq) {
      ++v.state_mismatches;
      v.add_finding(at + " = " + std::to_string(value) + " (seq " + std::to_string(seq) +
                    "), the ledgers say " + std::to_string(expected.value) + " (seq " +
                    std::to_string(expected.seq) + ")");
    }
  }
  if (rc != SQLITE_DONE) return Error{"cannot read kv: " + db.message()};
  for (std::size_t key = 0; key < keys_.size(); ++key) {
    if (keys_[key].written && !seen[key]) {
      ++v.state_mismatches;
      v.add_finding("key " + std::to_string(key) + ": the ledgers say " +
                    std::to_string(keys_[key].value) + " (seq " + std::to_string(keys_[key].seq) +
                    "), the database has no row");
    }
  }
  return {};
}

Status Replay::compare_balances(const ledger_sql::Db& db, LedgerVerdict& v) const {
  ledger_sql::Stmt rows;
  if (rows.prepare(db, "SELECT id, balance FROM accounts ORDER BY id") != SQLITE_OK) {
    return Error{"cannot read accounts: " + db.message()};
  }
  v.expected_balance_total = layout_.total_balance();
  v.balance_total = 0;
  std::vector<bool> seen(balances_.size(), false);
  int rc;
  while ((rc = rows.step()) == SQLITE_ROW) {
    const std::int64_t id = rows.int_at(0);
    const std::int64_t balance = rows.int_at(1);
    v.balance_total += balance;
    if (id < 0 || static_cast<std::size_t>(id) >= balances_.size()) {
      ++v.state_mismatches;
      v.add_finding("account " + std::to_string(id) + ": not in the layout");
      continue;
    }
    seen[static_cast<std::size_t>(id)] = true;
    if (balances_[static_cast<std::size_t>(id)] != balance) {
      ++v.state_mismatches;
      v.add_finding("account " + std::to_string(id) + " = " + std::to_string(balance) +
                    ", the ledgers say " + std::to_string(balances_[static_cast<std::size_t>(id)]));
    }
  }
  if (rc != SQLITE_DONE) return Error{"cannot read accounts: " + db.message()};
  for (std::size_t id = 0; id < seen.size(); ++id) {
    if (!seen[id]) {
      ++v.state_mismatches;
      v.add_finding("account " + std::to_string(id) + ": missing from the database");
    }
  }
  if (v.balance_total != v.expected_balance_total) {
    ++v.invariant_violations;
    v.add_finding("the balances sum to " + std::to_string(v.balance_total) + ", not " +
                  std::to_string(v.expected_balance_total));
  }
  return {};
}

}  // namespace jbench::oracle
