#include "transaction_set.h"

#include "jbench/common/random.h"

namespace jbench::oracle::fault_detail {

namespace {

// Letters only, so the SQL needs no quoting beyond the enclosing quotes.
std::string text(SplitMix64& rng, std::size_t length) {
  std::string s(length, 'a');
  for (char& c : s) c = static_cast<char>('a' + rng.below(26));
  return s;
}

std::string insert_row(SplitMix64& rng, int id, std::size_t text_length) {
  return "INSERT INTO t(id, k, v) VALUES (" + std::to_string(id) + ", " +
         std::to_string(rng.below(1000)) + ", '" + text(rng, text_length) + "')";
}

// The table, its index and 24 starting rows; `next_id` is the first id after them. Rows of 100+
// bytes over a 4 KiB page: the table and its index span several pages, so a transaction writes
// more than one page and a torn commit would show.
TransactionSet with_starting_rows(SplitMix64& rng, int& next_id) {
  TransactionSet set;
  set.setup = {"CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER NOT NULL, v TEXT NOT NULL)",
               "CREATE INDEX t_k ON t(k)"};
  for (next_id = 1; next_id <= 24; ++next_id) set.setup.push_back(insert_row(rng, next_id, 120));
  return set;
}

}  // namespace

TransactionSet make_transaction_set(std::uint64_t seed) {
  SplitMix64 rng(seed);
  int next_id = 1;
  TransactionSet set = with_starting_rows(rng, next_id);

  SetTransaction insert{"insert", {}};
  for (int i = 0; i < 4; ++i) insert.statements.push_back(insert_row(rng, next_id++, 200));
  set.transactions.push_back(insert);

  // ids 1..28 exist: every residue mod 4 matches seven rows.
  set.transactions.push_back(
      {"update",
       {"UPDATE t SET k = k + " + std::to_string(1 + rng.below(50)) + ", v = '" + text(rng, 150) +
        "' WHERE id % 4 = " + std::to_string(rng.below(4))}});

  // What happens inside the savepoint must vanish; the insert after it must stay.
  SetTransaction savepoint{"savepoint_rolled_back", {"SAVEPOINT sp"}};
  savepoint.statements.push_back(insert_row(rng, 900, 300));
  savepoint.statements.push_back("DELETE FROM t WHERE id <= 5");
  savepoint.statements.push_back("ROLLBACK TO sp");
  savepoint.statements.push_back("RELEASE sp");
  savepoint.statements.push_back(insert_row(rng, next_id++, 100));
  set.transactions.push_back(savepoint);

  // Three distinct ids among the first 28, all present (nothing before deletes them).
  std::vector<int> pool;
  for (int id = 1; id <= 28; ++id) pool.push_back(id);
  std::string ids;
  for (int i = 0; i < 3; ++i) {
    auto j = static_cast<std::size_t>(rng.below(pool.size()));
    ids += (i ? ", " : "") + std::to_string(pool[j]);
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(j));
  }
  set.transactions.push_back({"delete", {"DELETE FROM t WHERE id IN (" + ids + ")"}});

  SetTransaction bulk{"multi_page_insert", {}};
  for (int i = 0; i < 10; ++i) bulk.statements.push_back(insert_row(rng, next_id++, 400));
  set.transactions.push_back(bulk);
  return set;
}

TransactionSet make_ledger_set(std::uint64_t seed, std::size_t count) {
  SplitMix64 rng(seed);
  int next_id = 1;
  TransactionSet set = with_starting_rows(rng, next_id);
  for (std::size_t i = 0; i < count; ++i) {
    const bool wide = rng.below(4) == 0;
    SetTransaction t{wide ? "wide_insert_update" : "insert_update", {}};
    t.statements.push_back(insert_row(rng, next_id, wide ? 3000 : 100));
    t.statements.push_back("UPDATE t SET v = '" + text(rng, 80) +
                           "' WHERE id = " + std::to_string(1 + rng.below(next_id)));
    ++next_id;
    set.transactions.push_back(std::move(t));
  }
  return set;
}

}  // namespace jbench::oracle::fault_detail
