#include "jbench/sqlite_workload/op_stream.h"

namespace jbench::sqlite_workload {

OpStream::OpStream(const WorkerConfig& config, const DatasetShape& shape)
    : rng_(combine64(config.seed, config.worker_index)),
      lane_(config.lane),
      read_ratio_(config.params.read_ratio),
      ops_per_transaction_(config.params.ops_per_transaction),
      shape_(shape) {}

TxnPlan OpStream::next() {
  TxnPlan plan;
  switch (lane_) {
    case Lane::writer:
      plan.writes = true;
      break;
    case Lane::reader:
      plan.writes = false;
      break;
    case Lane::mixed: {
      // 53 random bits as a double in [0, 1): exact, so read_ratio 0 never reads and 1 always does.
      const double u = static_cast<double>(rng_.next() >> 11) * 0x1.0p-53;
      plan.writes = !(u < read_ratio_);
      break;
    }
  }
  plan.ops.reserve(ops_per_transaction_);
  for (std::uint32_t i = 0; i < ops_per_transaction_; ++i) {
    plan.ops.push_back(plan.writes ? next_write() : next_read());
  }
  return plan;
}

// Reads: weights 2/5 lookup_by_id, 1/5 each for scan_grp_range, weight_by_id_range and
// count_above_mean_weight.
Op OpStream::next_read() {
  Op op;
  const auto rows = shape_.rows;
  const auto groups = shape_.groups;
  switch (rng_.below(5)) {
    case 0:
    case 1:
      op.query = Query::lookup_by_id;
      op.a = 1 + below(rows);
      break;
    case 2:
      op.query = Query::scan_grp_range;
      op.a = below(groups);
      op.b = op.a + kGroupSpan - 1;
      break;
    case 3:
      op.query = Query::weight_by_id_range;
      op.a = 1 + below(rows);
      op.b = op.a + kIdSpan - 1;
      break;
    default:
      op.query = Query::count_above_mean_weight;
      op.a = below(groups);
      break;
  }
  return op;
}

// Writes: 1/2 insert (grp, val, payload of row_bytes), 1/2 update of an original row's val.
Op OpStream::next_write() {
  Op op;
  if (rng_.below(2) == 0) {
    op.query = Query::insert_item;
    op.a = below(shape_.groups);
    op.b = below(kValRange);
    op.payload.resize(shape_.row_bytes);
    fill_payload(rng_, op.payload);
  } else {
    op.query = Query::update_val;
    op.a = below(kValRange);
    op.b = 1 + below(shape_.rows);
  }
  return op;
}

}  // namespace jbench::sqlite_workload
