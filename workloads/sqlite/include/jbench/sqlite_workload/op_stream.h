// The worker's operation stream: a pure function of (seed, worker_index) and the configuration,
// so two runs of the same cell issue the same statements with the same parameters in the same
// order, on any machine.
//
// Generator: jbench::SplitMix64 (core/common/random.h) seeded with
// combine64(seed, worker_index); bounded draws use its below() (Lemire, with rejection), and a
// probability draw is (next() >> 11) * 2^-53. Never std::*_distribution: those are
// implementation-defined. The draw order per transaction is part of the contract and is
// written down in docs/worker-protocol.md ("Operation stream").
//
// A transaction's parameters are drawn before it runs, so a retried transaction replays the
// same operations, and retries or phase boundaries never shift the rest of the stream.
#pragma once

#include <cstdint>
#include <vector>

#include "jbench/common/random.h"
#include "jbench/sqlite_workload/config.h"
#include "jbench/sqlite_workload/dataset.h"
#include "jbench/sqlite_workload/queries.h"

namespace jbench::sqlite_workload {

struct Op {
  Query query = Query::lookup_by_id;
  std::int64_t a = 0;                  // first bound parameter (see Query)
  std::int64_t b = 0;                  // second bound parameter, if any
  std::vector<unsigned char> payload;  // insert_item only
};

struct TxnPlan {
  bool writes = false;
  std::vector<Op> ops;
};

class OpStream {
 public:
  OpStream(const WorkerConfig& config, const DatasetShape& shape);

  // The next transaction: ops_per_transaction operations of the lane's kind.
  TxnPlan next();

  // Rows a correlated range query covers ([id, id + kIdSpan - 1]) and groups a scan covers.
  static constexpr std::int64_t kIdSpan = 32;
  static constexpr std::int64_t kGroupSpan = 2;

 private:
  Op next_read();
  Op next_write();
  std::int64_t below(std::uint64_t bound) { return static_cast<std::int64_t>(rng_.below(bound)); }

  SplitMix64 rng_;
  Lane lane_;
  double read_ratio_;
  std::uint32_t ops_per_transaction_;
  DatasetShape shape_;
};

}  // namespace jbench::sqlite_workload
