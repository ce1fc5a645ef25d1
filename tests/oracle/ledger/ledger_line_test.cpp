// The ledger line format, the transaction plan and the reading of whole ledger files.
#include "jbench/oracle/ledger_line.h"

#include <gtest/gtest.h>

#include <cctype>

#include "jbench/oracle/ledger_file.h"
#include "jbench/oracle/ledger_plan.h"

namespace jbench::oracle {
namespace {

LedgerLine txn_line(std::uint64_t seq, std::string body) {
  LedgerLine l;
  l.writer = 1;
  l.incarnation = 2;
  l.seq = seq;
  l.aborts = 1;
  l.savepoints_kept = 2;
  l.savepoints_rolled = 3;
  l.body = std::move(body);
  l.checksum = transaction_checksum(1, seq, l.body);
  return l;
}

TEST(LedgerLine, txn_line_round_trips) {
  const LedgerLine l = txn_line(17, "32=5;33=-0");
  const std::string text = format_ledger_line(l);
  EXPECT_EQ(text.rfind("txn w=1 inc=2 seq=17 aborts=1 sp_ok=2 sp_rb=3 body=32=5;33=-0 sum=", 0),
            0u);
  const auto back = parse_ledger_line(text);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->seq, 17u);
  EXPECT_EQ(back->body, l.body);
  EXPECT_EQ(back->checksum, l.checksum);
  EXPECT_EQ(back->savepoints_rolled, 3u);
}

TEST(LedgerLine, rejects_every_proper_prefix_of_a_line) {
  const std::string text = format_ledger_line(txn_line(9, "1=2"));
  for (std::size_t n = 0; n + 1 < text.size(); ++n) {
    // A prefix that cuts the checksum, a field name or a number never parses as a whole line,
    // except a cut inside the body's last number, which the checksum then refuses.
    const auto parsed = parse_ledger_line(std::string_view(text).substr(0, n));
    EXPECT_FALSE(parsed && parsed->checksum == transaction_checksum(1, 9, parsed->body))
        << "prefix " << n;
  }
}

TEST(LedgerLine, rejects_upper_case_and_short_checksums) {
  LedgerLine l = txn_line(9, "1=2");
  l.checksum = 0xabcdef0123456789ULL;  // letters in it, so upper case differs
  const std::string text = format_ledger_line(l);
  EXPECT_TRUE(parse_ledger_line(text));
  EXPECT_FALSE(parse_ledger_line(text.substr(0, text.size() - 1)));
  std::string upper = text;
  for (std::size_t i = upper.size() - 16; i < upper.size(); ++i) {
    upper[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[i])));
  }
  ASSERT_NE(upper, text);
  EXPECT_FALSE(parse_ledger_line(upper));
}

TEST(LedgerLine, start_and_end_lines_round_trip) {
  LedgerLine start;
  start.kind = LedgerLineKind::start;
  start.writer = 0;
  start.incarnation = 4;
  start.seq = 12;
  EXPECT_EQ(format_ledger_line(start), "start w=0 inc=4 next=12");
  const auto back = parse_ledger_line("end w=3 inc=1 last=200");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->kind, LedgerLineKind::end);
  EXPECT_EQ(back->seq, 200u);
  EXPECT_FALSE(parse_ledger_line("end w=3 inc=1 last=200 extra=1"));
  EXPECT_FALSE(parse_ledger_line("start w=x inc=1 next=2"));
}

TEST(LedgerBody, keyed_and_bank_bodies_round_trip_and_reject_garbage) {
  std::vector<KeyedWrite> writes;
  ASSERT_TRUE(parse_keyed_body(format_keyed_body({{3, 7}, {4, -9}}), writes));
  ASSERT_EQ(writes.size(), 2u);
  EXPECT_EQ(writes[1].value, -9);
  std::vector<Transfer> transfers;
  ASSERT_TRUE(parse_bank_body(format_bank_body({{1, 2, 30}}), transfers));
  ASSERT_EQ(transfers.size(), 1u);
  EXPECT_EQ(transfers[0].to, 2);
  EXPECT_EQ(transfers[0].amount, 30);
  EXPECT_FALSE(parse_keyed_body("3=", writes));
  EXPECT_FALSE(parse_bank_body("1:2>3", transfers));
}

TEST(LedgerFile, torn_last_line_is_tolerated_and_torn_middle_line_is_not) {
  const std::string a = format_ledger_line(txn_line(1, "1=1")) + "\n";
  const std::string b = format_ledger_line(txn_line(2, "1=2")) + "\n";
  const std::string start = "start w=1 inc=3 next=3\n";
  // Cut at the end of the file: what a kill mid-append leaves.
  auto at_end = parse_ledger_text("l", a + b.substr(0, 20));
  ASSERT_EQ(at_end.torn.size(), 1u);
  EXPECT_TRUE(at_end.torn[0].tolerated);
  EXPECT_FALSE(at_end.ends_with_newline);
  EXPECT_EQ(at_end.lines.size(), 1u);
  // Terminated by the next incarnation, which then starts: tolerated.
  auto before_start = parse_ledger_text("l", a + b.substr(0, 20) + "\n" + start);
  ASSERT_EQ(before_start.torn.size(), 1u);
  EXPECT_TRUE(before_start.torn[0].tolerated);
  EXPECT_EQ(before_start.torn[0].line_number, 2u);
  // Followed by more entries of the same incarnation: corruption.
  auto middle = parse_ledger_text("l", a.substr(0, 20) + "\n" + b);
  ASSERT_EQ(middle.torn.size(), 1u);
  EXPECT_FALSE(middle.torn[0].tolerated);
  // A whole line that lacks only its '\n' was not durable as written: torn, not an entry.
  auto no_newline = parse_ledger_text("l", a + b.substr(0, b.size() - 1));
  EXPECT_EQ(no_newline.lines.size(), 1u);
  EXPECT_EQ(no_newline.torn.size(), 1u);
}

TEST(LedgerFile, missing_file_is_an_empty_ledger) {
  auto file = read_ledger_file("/nonexistent/jbench/ledger");
  ASSERT_TRUE(file);
  EXPECT_FALSE(file->exists);
  EXPECT_TRUE(file->lines.empty());
}

TEST(LedgerPlan, is_fixed_by_seed_writer_and_seq_and_stays_in_the_writers_keys) {
  LedgerLayout layout;
  layout.keys_per_writer = 8;
  const auto a = plan_transaction(layout, 5, 2, 40);
  const auto b = plan_transaction(layout, 5, 2, 40);
  EXPECT_EQ(plan_body(layout.variant, a), plan_body(layout.variant, b));
  EXPECT_NE(plan_body(layout.variant, a),
            plan_body(layout.variant, plan_transaction(layout, 6, 2, 40)));
  bool saw_rolled_back = false;
  for (std::uint64_t seq = 1; seq <= 200; ++seq) {
    const auto plan = plan_transaction(layout, 5, 2, seq);
    EXPECT_FALSE(plan_body(layout.variant, plan).empty());
    for (const auto& step : plan.steps) {
      saw_rolled_back = saw_rolled_back || step.kind == StepKind::savepoint_rolled_back;
      for (const auto& w : step.writes) {
        EXPECT_GE(w.key, 16);
        EXPECT_LT(w.key, 24);
        // Committed values are positive, so a leaked poison write (negative) is told apart.
        if (step.kind == StepKind::savepoint_rolled_back) {
          EXPECT_LT(w.value, 0);
        } else {
          EXPECT_GT(w.value, 0);
        }
      }
    }
  }
  EXPECT_TRUE(saw_rolled_back);
}

}  // namespace
}  // namespace jbench::oracle
