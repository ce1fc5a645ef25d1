#include "jbench/oracle/ledger_verify.h"

#include <algorithm>
#include <map>

#include "jbench/common/clock.h"
#include "jbench/oracle/ledger_file.h"
#include "replay.h"
#include "sqlite_db.h"

namespace jbench::oracle {
namespace {

using ledger_sql::Db;
using ledger_sql::Stmt;

std::string who(std::uint64_t writer, std::uint64_t seq) {
  return "writer " + std::to_string(writer) + " seq " + std::to_string(seq);
}

// What one incarnation of a writer left in its ledger.
struct IncarnationEntries {
  std::uint64_t next = 0;  // from its start line
  bool has_txn = false;
  std::uint64_t last_seq = 0;
  bool ended = false;
  bool allowance_used = false;

  // The one seq that may be committed but unledgered: right after its last entry.
  std::uint64_t allowed_unledgered_seq() const { return has_txn ? last_seq + 1 : next; }
};

struct WriterLedger {
  std::vector<LedgerLine> txns;  // sorted by seq
  std::map<std::uint64_t, IncarnationEntries> incarnations;
};

// A ledger file read in order: the incarnation its lines belong to so far.
struct LedgerWalk {
  std::uint64_t writer = 0;
  std::string name;  // "writer N ledger"
  IncarnationEntries* current = nullptr;
  std::uint64_t current_inc = 0;
  bool sorted = true;
};

void check_torn_lines(const LedgerFile& file, const std::string& name, LedgerVerdict& v) {
  for (const auto& torn : file.torn) {
    if (torn.tolerated) {
      ++v.torn_final_lines;
    } else {
      ++v.ledger_errors;
      v.add_finding(name + ": torn line " + std::to_string(torn.line_number) +
                    " in the middle of an incarnation: '" + torn.text + "'");
    }
  }
}

// A transaction's line: its checksum, its incarnation's start and end, its seq's order.
void check_txn_line(const LedgerLine& line, LedgerWalk& w, WriterLedger& out, LedgerVerdict& v) {
  ++v.ledgered;
  v.aborted_attempts += line.aborts;
  v.savepoints_kept += line.savepoints_kept;
  v.savepoints_rolled_back += line.savepoints_rolled;
  if (transaction_checksum(line.writer, line.seq, line.body) != line.checksum) {
    ++v.checksum_mismatches;
    v.add_finding(who(w.writer, line.seq) + ": the ledger line's checksum is wrong");
  }
  if (!w.current || line.incarnation != w.current_inc) {
    ++v.ledger_errors;
    v.add_finding(who(w.writer, line.seq) + ": ledgered by incarnation " +
                  std::to_string(line.incarnation) + ", which has no start line before it");
  } else {
    if (w.current->ended) {
      ++v.ledger_errors;
      v.add_finding(who(w.writer, line.seq) + ": ledgered after its incarnation's end line");
    }
    if (line.seq < w.current->next) {
      ++v.ledger_errors;
      v.add_finding(who(w.writer, line.seq) + ": below its incarnation's start seq " +
                    std::to_string(w.current->next));
    }
    w.current->has_txn = true;
    w.current->last_seq = line.seq;
  }
  if (!out.txns.empty() && line.seq <= out.txns.back().seq) {
    ++v.ledger_errors;
    v.add_finding(who(w.writer, line.seq) + ": ledgered after seq " +
                  std::to_string(out.txns.back().seq) + " (seqs must increase)");
    w.sorted = false;
  }
  out.txns.push_back(line);
}

void check_line(const LedgerLine& line, LedgerWalk& w, WriterLedger& out, LedgerVerdict& v) {
  switch (line.kind) {
    case LedgerLineKind::start:
      if (w.current && line.incarnation <= w.current_inc) {
        ++v.ledger_errors;
        v.add_finding(w.name + ": incarnation " + std::to_string(line.incarnation) +
                      " starts after incarnation " + std::to_string(w.current_inc));
      }
      w.current_inc = line.incarnation;
      w.current = &out.incarnations[line.incarnation];
      w.current->next = line.seq;
      return;
    case LedgerLineKind::end:
      if (!w.current || line.incarnation != w.current_inc) {
        ++v.ledger_errors;
        v.add_finding(w.name + ": an end line of incarnation " + std::to_string(line.incarnation) +
                      " that never started");
        return;
      }
      w.current->ended = true;
      return;
    case LedgerLineKind::txn:
      check_txn_line(line, w, out, v);
      return;
  }
}

// Structural checks of one ledger file; fills `out` with its txn lines (by seq, each seq once)
// and incarnations.
void check_ledger(std::uint64_t writer, const LedgerFile& file, WriterLedger& out,
                  LedgerVerdict& v) {
  LedgerWalk w;
  w.writer = writer;
  w.name = "writer " + std::to_string(writer) + " ledger";
  check_torn_lines(file, w.name, v);
  for (auto& line : file.lines) {
    if (line.writer != writer) {
      ++v.ledger_errors;
      v.add_finding(w.name + ": a line names writer " + std::to_string(line.writer));
      continue;
    }
    check_line(line, w, out, v);
  }
  if (!w.sorted) {
    std::stable_sort(out.txns.begin(), out.txns.end(),
                     [](const LedgerLine& a, const LedgerLine& b) { return a.seq < b.seq; });
    out.txns.erase(
        std::unique(out.txns.begin(), out.txns.end(),
                    [](const LedgerLine& a, const LedgerLine& b) { return a.seq == b.seq; }),
        out.txns.end());
  }
}

std::string integrity_check(const Db& db) {
  Stmt stmt;
  if (stmt.prepare(db, "PRAGMA integrity_check") != SQLITE_OK) return "cannot run: " + db.message();
  std::string text;
  int rc;
  while ((rc = stmt.step()) == SQLITE_ROW) {
    if (!text.empty()) text += "; ";
    text += stmt.text_at(0);
  }
  if (rc != SQLITE_DONE) text += (text.empty() ? "" : "; ") + ("failed: " + db.message());
  return text;
}

struct DbTxn {
  std::uint64_t writer = 0;
  std::uint64_t seq = 0;
  std::uint64_t incarnation = 0;
  std::string_view body;
  std::string_view checksum;
};

// Merges the txns table (in (writer, seq) order) with the ledgers, and replays what is accepted.
Status merge_transactions(const Db& db, std::vector<WriterLedger>& ledgers, Replay& replay,
                          LedgerVerdict& v) {
  Stmt rows;
  if (rows.prepare(db,
                   "SELECT writer, seq, incarnation, body, checksum FROM txns "
                   "ORDER BY writer, seq") != SQLITE_OK) {
    return Error{"cannot read txns: " + db.message()};
  }
  std::vector<std::size_t> cursor(ledgers.size(), 0);
  // Ledgered transactions of `writer` below `seq` that the database does not have.
  auto flush_lost = [&](std::size_t writer, std::uint64_t below) {
    auto& txns = ledgers[writer].txns;
    while (cursor[writer] < txns.size() && txns[cursor[writer]].seq < below) {
      const auto& line = txns[cursor[writer]++];
      ++v.lost;
      v.add_finding(who(writer, line.seq) + ": ledgered (committed) but not in the database");
      replay.apply(writer, line.seq, line.body, v);
    }
  };
  int rc;
  while ((rc = rows.step()) == SQLITE_ROW) {
    ++v.committed;
    DbTxn row{static_cast<std::uint64_t>(rows.int_at(0)),
              static_cast<std::uint64_t>(rows.int_at(1)),
              static_cast<std::uint64_t>(rows.int_at(2)), rows.text_at(3), rows.text_at(4)};
    const auto sum = parse_checksum_hex(row.checksum);
    if (!sum || *sum != transaction_checksum(row.writer, row.seq, row.body)) {
      ++v.checksum_mismatches;
      v.add_finding(who(row.writer, row.seq) + ": the txns row's checksum is wrong");
    }
    if (row.writer >= ledgers.size()) {
      ++v.visible_uncommitted;
      v.add_finding(who(row.writer, row.seq) + ": in the database, from no known writer");
      continue;
    }
    const auto w = static_cast<std::size_t>(row.writer);
    flush_lost(w, row.seq);
    auto& txns = ledgers[w].txns;
    if (cursor[w] < txns.size() && txns[cursor[w]].seq == row.seq) {
      const auto& line = txns[cursor[w]++];
      if (line.body != row.body || !sum || *sum != line.checksum) {
        ++v.state_mismatches;
        v.add_finding(who(row.writer, row.seq) +
                      ": the database's body or checksum differs from the ledger's");
      }
      replay.apply(w, line.seq, line.body, v);
      continue;
    }
    auto inc = ledgers[w].incarnations.find(row.incarnation);
    if (inc != ledgers[w].incarnations.end() && !inc->second.ended && !inc->second.allowance_used &&
        inc->second.allowed_unledgered_seq() == row.seq) {
      inc->second.allowance_used = true;
      ++v.unledgered_after_kill;
      replay.apply(w, row.seq, row.body, v);
      continue;
    }
    ++v.visible_uncommitted;
    v.add_finding(who(row.writer, row.seq) + " (incarnation " + std::to_string(row.incarnation) +
                  "): in the database but not in the ledger, and not the one transaction a "
                  "kill after COMMIT may leave unledgered");
  }
  if (rc != SQLITE_DONE) return Error{"cannot read txns: " + db.message()};
  for (std::size_t w = 0; w < ledgers.size(); ++w) flush_lost(w, UINT64_MAX);
  return {};
}

void check_probe(const Db& db, LedgerVerdict& v) {
  Stmt rows;
  if (rows.prepare(db, "SELECT writer, seq, incarnation, what FROM rolled_back_probe") !=
      SQLITE_OK) {
    ++v.state_mismatches;
    v.add_finding("cannot read rolled_back_probe: " + db.message());
    return;
  }
  while (rows.step() == SQLITE_ROW) {
    ++v.rolled_back_visible;
    v.add_finding(who(static_cast<std::uint64_t>(rows.int_at(0)),
                      static_cast<std::uint64_t>(rows.int_at(1))) +
                  " (incarnation " + std::to_string(rows.int_at(2)) + "): rolled-back work is " +
                  "visible (" + std::string(rows.text_at(3)) + ")");
  }
}

}  // namespace

Result<LedgerVerdict> verify_ledgers(const std::string& db_path,
                                     const std::vector<std::string>& ledger_paths,
                                     const LedgerLayout& layout) {
  const std::uint64_t started_ns = monotonic_ns();
  LedgerVerdict v;
  v.variant = layout.variant;
  v.writers = ledger_paths.size();
  Db db;
  if (auto s = db.open(db_path, SQLITE_OPEN_READONLY); !s) return s.error();
  v.integrity_check = integrity_check(db);

  std::vector<WriterLedger> ledgers(ledger_paths.size());
  for (std::size_t w = 0; w < ledger_paths.size(); ++w) {
    auto file = read_ledger_file(ledger_paths[w]);
    if (!file) return file.error();
    check_ledger(w, *file, ledgers[w], v);
  }

  LedgerLayout replay_layout = layout;
  replay_layout.writers = ledger_paths.size();
  Replay replay(replay_layout);
  if (auto s = merge_transactions(db, ledgers, replay, v); !s) return s.error();
  check_probe(db, v);
  if (auto s = replay.compare(db, v); !s) return s.error();
  v.verify_ms = (monotonic_ns() - started_ns) / 1000000;
  return v;
}

}  // namespace jbench::oracle
