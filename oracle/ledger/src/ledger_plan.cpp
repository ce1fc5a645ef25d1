#include "jbench/oracle/ledger_plan.h"

#include "jbench/common/random.h"

namespace jbench::oracle {
namespace {

std::int64_t own_key(const LedgerLayout& layout, std::uint64_t writer, SplitMix64& rng) {
  const std::uint64_t per = layout.keys_per_writer;
  return static_cast<std::int64_t>(writer * per + rng.below(per));
}

std::int64_t any_account(const LedgerLayout& layout, SplitMix64& rng) {
  return static_cast<std::int64_t>(rng.below(layout.accounts));
}

void fill_step(const LedgerLayout& layout, std::uint64_t writer, bool poison, SplitMix64& rng,
               TxnStep& step) {
  const std::uint64_t ops = 1 + rng.below(3);
  for (std::uint64_t i = 0; i < ops; ++i) {
    if (layout.variant == LedgerVariant::keyed) {
      const std::int64_t key = own_key(layout, writer, rng);
      const auto magnitude = static_cast<std::int64_t>(1 + rng.below(1000000000));
      step.writes.push_back({key, poison ? -magnitude : magnitude});
    } else {
      Transfer t;
      t.from = any_account(layout, rng);
      t.to = any_account(layout, rng);
      // Poison is an unbalanced credit (from == to marks it in the plan; the writer applies
      // it as a credit of `amount` to `to` alone), so a leak breaks the fixed total.
      if (poison) {
        t.from = t.to;
        t.amount = kPoisonCredit;
      } else {
        t.amount = static_cast<std::int64_t>(1 + rng.below(100));
      }
      step.transfers.push_back(t);
    }
  }
}

}  // namespace

TxnPlan plan_transaction(const LedgerLayout& layout, std::uint64_t seed, std::uint64_t writer,
                         std::uint64_t seq) {
  SplitMix64 rng(combine64(seed, combine64(writer, seq)));
  TxnPlan plan;
  plan.abort_first = rng.below(8) == 0;
  const std::uint64_t steps = 1 + rng.below(3);
  for (std::uint64_t i = 0; i < steps; ++i) {
    TxnStep step;
    const std::uint64_t roll = rng.below(4);
    step.kind = roll == 0   ? StepKind::savepoint_rolled_back
                : roll == 1 ? StepKind::savepoint_kept
                            : StepKind::plain;
    fill_step(layout, writer, step.kind == StepKind::savepoint_rolled_back, rng, step);
    plan.steps.push_back(std::move(step));
  }
  // Every committed transaction leaves something behind, so its body is never empty.
  if (plan.steps.back().kind == StepKind::savepoint_rolled_back) {
    TxnStep last;
    fill_step(layout, writer, false, rng, last);
    plan.steps.push_back(std::move(last));
  }
  return plan;
}

std::string plan_body(LedgerVariant variant, const TxnPlan& plan) {
  if (variant == LedgerVariant::keyed) {
    std::vector<KeyedWrite> writes;
    for (const auto& step : plan.steps) {
      if (step.kind == StepKind::savepoint_rolled_back) continue;
      writes.insert(writes.end(), step.writes.begin(), step.writes.end());
    }
    return format_keyed_body(writes);
  }
  std::vector<Transfer> transfers;
  for (const auto& step : plan.steps) {
    if (step.kind == StepKind::savepoint_rolled_back) continue;
    transfers.insert(transfers.end(), step.transfers.begin(), step.transfers.end());
  }
  return format_bank_body(transfers);
}

}  // namespace jbench::oracle
