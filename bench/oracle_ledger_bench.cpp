// verify_ledgers at scale. Goal: a database and ledgers of 1,000,000 committed transactions
// verify in under 30 s. Each fixture (4 writers x 250,000 transactions of one variant, the
// writers' own plan, an incarnation restart every 100,000 seqs) is built once, in bulk inside
// one SQLite transaction, in a temporary directory removed at exit; building it is not timed.
// Peak memory is the process's max RSS, which includes the build: run this benchmark alone.
#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "jbench/oracle/ledger.h"
#include "jbench/oracle/ledger_line.h"
#include "jbench/oracle/ledger_plan.h"

namespace jbench::oracle {
namespace {

constexpr std::size_t kWriters = 4;
constexpr std::uint64_t kPerWriter = 250000;
constexpr std::uint64_t kRestartEvery = 100000;
constexpr std::uint64_t kSeed = 1;

void must(int rc, sqlite3* db, const char* what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE) {
    std::fprintf(stderr, "oracle_ledger_bench: %s: %s\n", what, sqlite3_errmsg(db));
    std::exit(3);
  }
}

struct Fixture {
  std::filesystem::path dir;
  LedgerLayout layout;
  std::vector<std::string> ledgers;

  explicit Fixture(LedgerVariant variant) {
    dir = std::filesystem::temp_directory_path() /
          ("jbench-ledger-bench-" + std::string(to_string(variant)) + "-" +
           std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    layout.writers = kWriters;
    layout.variant = variant;
    const std::string db_path = (dir / "ledger.db").string();
    if (!create_ledger_database(db_path, layout, JournalMode::wal)) std::exit(3);
    sqlite3* db = nullptr;
    must(sqlite3_open(db_path.c_str(), &db), db, "open");
    must(sqlite3_exec(db, "PRAGMA synchronous=OFF; BEGIN", nullptr, nullptr, nullptr), db, "begin");
    sqlite3_stmt* txn = nullptr;
    sqlite3_stmt* kv = nullptr;
    sqlite3_stmt* move = nullptr;
    must(sqlite3_prepare_v2(db, "INSERT INTO txns VALUES(?1, ?2, ?3, ?4, ?5)", -1, &txn, nullptr),
         db, "prepare txns");
    must(sqlite3_prepare_v2(db,
                            "INSERT INTO kv VALUES(?1, ?2, ?3, ?4) ON CONFLICT(key) DO UPDATE "
                            "SET value = excluded.value, seq = excluded.seq",
                            -1, &kv, nullptr),
         db, "prepare kv");
    must(sqlite3_prepare_v2(db, "UPDATE accounts SET balance = balance + ?2 WHERE id = ?1", -1,
                            &move, nullptr),
         db, "prepare accounts");
    std::vector<KeyedWrite> writes;
    std::vector<Transfer> transfers;
    for (std::size_t w = 0; w < kWriters; ++w) {
      ledgers.push_back(ledger_path_for(dir.string(), w));
      std::ofstream out(ledgers.back());
      for (std::uint64_t seq = 1; seq <= kPerWriter; ++seq) {
        const std::uint64_t inc = (seq - 1) / kRestartEvery;
        if ((seq - 1) % kRestartEvery == 0) {
          out << "start w=" << w << " inc=" << inc << " next=" << seq << '\n';
        }
        LedgerLine line;
        line.writer = w;
        line.incarnation = inc;
        line.seq = seq;
        const TxnPlan plan = plan_transaction(layout, kSeed, w, seq);
        line.body = plan_body(layout.variant, plan);
        line.checksum = transaction_checksum(w, seq, line.body);
        out << format_ledger_line(line) << '\n';
        const std::string sum = checksum_hex(line.checksum);
        sqlite3_bind_int64(txn, 1, static_cast<sqlite3_int64>(w));
        sqlite3_bind_int64(txn, 2, static_cast<sqlite3_int64>(seq));
        sqlite3_bind_int64(txn, 3, static_cast<sqlite3_int64>(inc));
        sqlite3_bind_text(txn, 4, line.body.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(txn, 5, sum.c_str(), -1, SQLITE_TRANSIENT);
        must(sqlite3_step(txn), db, "insert txns");
        sqlite3_reset(txn);
        transfers.clear();
        parse_bank_body(variant == LedgerVariant::bank ? line.body : "", transfers);
        for (const auto& t : transfers) {
          for (const auto& [account, amount] : {std::pair{t.from, -t.amount}, {t.to, t.amount}}) {
            sqlite3_bind_int64(move, 1, account);
            sqlite3_bind_int64(move, 2, amount);
            must(sqlite3_step(move), db, "update accounts");
            sqlite3_reset(move);
          }
        }
        writes.clear();
        parse_keyed_body(variant == LedgerVariant::keyed ? line.body : "", writes);
        for (const auto& kw : writes) {
          sqlite3_bind_int64(kv, 1, kw.key);
          sqlite3_bind_int64(kv, 2, kw.value);
          sqlite3_bind_int64(kv, 3, static_cast<sqlite3_int64>(w));
          sqlite3_bind_int64(kv, 4, static_cast<sqlite3_int64>(seq));
          must(sqlite3_step(kv), db, "upsert kv");
          sqlite3_reset(kv);
        }
      }
      out << "end w=" << w << " inc=" << (kPerWriter - 1) / kRestartEvery << " last=" << kPerWriter
          << '\n';
    }
    sqlite3_finalize(txn);
    sqlite3_finalize(kv);
    sqlite3_finalize(move);
    must(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), db, "commit");
    sqlite3_close(db);
  }
  ~Fixture() { std::filesystem::remove_all(dir); }
};

const Fixture& fixture(LedgerVariant variant) {
  static const Fixture keyed(LedgerVariant::keyed);
  if (variant == LedgerVariant::keyed) return keyed;
  static const Fixture bank(LedgerVariant::bank);
  return bank;
}

void verify_million(benchmark::State& state, LedgerVariant variant) {
  const Fixture& f = fixture(variant);
  const std::string db_path = (f.dir / "ledger.db").string();
  std::size_t committed = 0;
  for (auto _ : state) {
    auto v = verify_ledgers(db_path, f.ledgers, f.layout);
    if (!v || !v->passed()) {
      state.SkipWithError(v ? "the fixture did not verify" : v.error().message.c_str());
      return;
    }
    committed = v->committed;
    benchmark::DoNotOptimize(committed);
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["transactions"] = static_cast<double>(committed);
  state.counters["txn_per_s"] =
      benchmark::Counter(static_cast<double>(committed) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["max_rss_mib"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
}
void BM_VerifyLedgers1M_Keyed(benchmark::State& state) {
  verify_million(state, LedgerVariant::keyed);
}
void BM_VerifyLedgers1M_Bank(benchmark::State& state) {
  verify_million(state, LedgerVariant::bank);
}
BENCHMARK(BM_VerifyLedgers1M_Keyed)->Unit(benchmark::kSecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_VerifyLedgers1M_Bank)->Unit(benchmark::kSecond)->Iterations(3)->UseRealTime();

}  // namespace
}  // namespace jbench::oracle

BENCHMARK_MAIN();
