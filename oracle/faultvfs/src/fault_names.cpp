// The names and error codes of fault_vfs.h's enums, kept apart from the shim's callbacks.
#include <sqlite3.h>

#include "jbench/oracle/fault_vfs.h"

namespace jbench::oracle {

std::string_view to_string(IoOp op) {
  switch (op) {
    case IoOp::read:
      return "read";
    case IoOp::write:
      return "write";
    case IoOp::sync:
      return "sync";
    case IoOp::truncate:
      return "truncate";
    case IoOp::lock:
      return "lock";
    case IoOp::unlock:
      return "unlock";
    case IoOp::remove:
      return "remove";
  }
  return "?";
}

std::optional<IoOp> io_op_from_string(std::string_view name) {
  for (IoOp op : kAllIoOps) {
    if (to_string(op) == name) return op;
  }
  return std::nullopt;
}

int io_error_code(IoOp op) {
  switch (op) {
    case IoOp::read:
      return SQLITE_IOERR_READ;
    case IoOp::write:
      return SQLITE_IOERR_WRITE;
    case IoOp::sync:
      return SQLITE_IOERR_FSYNC;
    case IoOp::truncate:
      return SQLITE_IOERR_TRUNCATE;
    case IoOp::lock:
      return SQLITE_IOERR_LOCK;
    case IoOp::unlock:
      return SQLITE_IOERR_UNLOCK;
    case IoOp::remove:
      return SQLITE_IOERR_DELETE;
  }
  return SQLITE_IOERR;
}

std::string_view to_string(FaultKind kind) {
  switch (kind) {
    case FaultKind::transient_error:
      return "transient_error";
    case FaultKind::persistent_error:
      return "persistent_error";
    case FaultKind::power_loss:
      return "power_loss";
  }
  return "?";
}

std::optional<FaultKind> fault_kind_from_string(std::string_view name) {
  for (FaultKind kind : kAllFaultKinds) {
    if (to_string(kind) == name) return kind;
  }
  return std::nullopt;
}

}  // namespace jbench::oracle
