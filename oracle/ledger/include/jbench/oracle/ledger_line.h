// One line of a writer's ledger file (docs/oracle-ledger.md, "Ledger line format").
//
// A writer's ledger is the record of what it was told was committed. Three kinds of line:
//   start w=0 inc=2 next=17                     an incarnation begins; its first seq will be 17
//   txn w=0 inc=2 seq=17 aborts=1 sp_ok=1 sp_rb=1 body=3=918273;7=1234 sum=<16 hex>
//   end w=0 inc=2 last=200                      the incarnation finished all its transactions
// `body` is what the transaction left behind (keyed: key=value;...; bank: from>to:amount;...),
// never what a rolled-back savepoint wrote. `sum` is transaction_checksum() of the writer, the
// seq and the body; the same body and sum are stored in the database's txns row.
//
//   auto line = parse_ledger_line("end w=0 inc=2 last=200");
//   if (line && line->kind == LedgerLineKind::end) ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jbench::oracle {

enum class LedgerLineKind { start, txn, end };

struct LedgerLine {
  LedgerLineKind kind = LedgerLineKind::txn;
  std::uint64_t writer = 0;
  std::uint64_t incarnation = 0;
  std::uint64_t seq = 0;                // start: the next seq; txn: its seq; end: the last seq
  std::uint64_t aborts = 0;             // txn: fully rolled-back attempts before it
  std::uint64_t savepoints_kept = 0;    // txn: savepoints RELEASEd into it
  std::uint64_t savepoints_rolled = 0;  // txn: savepoints rolled back (ROLLBACK TO) inside it
  std::string body;
  std::uint64_t checksum = 0;
};

// FNV-1a 64 of "w=<writer> seq=<seq> body=<body>".
std::uint64_t transaction_checksum(std::uint64_t writer, std::uint64_t seq, std::string_view body);
std::string checksum_hex(std::uint64_t checksum);  // 16 lowercase hex digits
std::optional<std::uint64_t> parse_checksum_hex(std::string_view text);

// The line without its '\n'.
std::string format_ledger_line(const LedgerLine& line);
// Empty when the text is not exactly one well-formed line (a torn line is not).
std::optional<LedgerLine> parse_ledger_line(std::string_view text);

// The bodies. A keyed write sets `key` to `value`; a transfer moves `amount` from one account
// to another.
struct KeyedWrite {
  std::int64_t key = 0;
  std::int64_t value = 0;
};
struct Transfer {
  std::int64_t from = 0;
  std::int64_t to = 0;
  std::int64_t amount = 0;
};
std::string format_keyed_body(const std::vector<KeyedWrite>& writes);
std::string format_bank_body(const std::vector<Transfer>& transfers);
// False when malformed. They append, so a replay can reuse one vector.
bool parse_keyed_body(std::string_view body, std::vector<KeyedWrite>& out);
bool parse_bank_body(std::string_view body, std::vector<Transfer>& out);

}  // namespace jbench::oracle
