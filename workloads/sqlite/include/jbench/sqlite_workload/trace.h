// What the worker reports to the trace bridge (bridge/include/jbench_bridge.h), with every name
// in one place. docs/worker-protocol.md ("Tracing") is the contract.
//
// The bridge has only a name per span, so the class of what is measured is part of the name:
//
//   connection_open:startup                 the connection opened between configure and ready
//   connection_open:steady                  a cold connection's per-transaction open
//   connection_close:startup|steady|teardown
//   transaction:read | transaction:write    one per transaction, retries included
//     statement:<plan class>                one per executed statement, child of its transaction
//       busy_wait                           each sleep of the busy handler (a lock is taken)
//
// Every name is a compile-time constant: while the bridge is off a call costs the bridge's one
// predictable branch, and nothing is built or looked up besides an array index.
//
//   const trace::Span span(trace::transaction_span(plan.writes));
//   ...  // statements begun here (parent 0) become its children
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "jbench/sqlite_workload/queries.h"
#include "jbench_bridge.h"

namespace jbench::sqlite_workload::trace {

inline constexpr const char* kConnectionOpenStartup = "connection_open:startup";
inline constexpr const char* kConnectionOpenSteady = "connection_open:steady";
inline constexpr const char* kConnectionCloseStartup = "connection_close:startup";
inline constexpr const char* kConnectionCloseSteady = "connection_close:steady";
inline constexpr const char* kConnectionCloseTeardown = "connection_close:teardown";
inline constexpr const char* kBusyWait = "busy_wait";
inline constexpr const char* kWalCheckpoint = "wal_checkpoint";

// "transaction:write" or "transaction:read": the kind the lane drew for this transaction.
const char* transaction_span(bool writes);

// "statement:" + plan_class(type) (queries.h).
const char* statement_span(OpType type);

// A span on the calling thread from construction to destruction. Spans begun meanwhile with
// parent 0 become its children (the bridge keeps a per-thread current span).
class Span {
 public:
  explicit Span(const char* name) : id_(jb_span_begin(name, 0)) {}
  ~Span() { jb_span_end(id_); }
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;

 private:
  std::uint64_t id_;  // 0 while the bridge is off (jb_span_end ignores it)
};

// jb_init_from_env(): activates the mode JBENCH_BRIDGE_MODE names. nullopt on success (mode off
// included), else why the bridge could not start, in one line for the `error` message.
std::optional<std::string> start_bridge();

// The active mode as JBENCH_BRIDGE_MODE spells it: off, no-consumer, light, full.
std::string_view bridge_mode_name();

}  // namespace jbench::sqlite_workload::trace
