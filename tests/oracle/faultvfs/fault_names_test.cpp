// The names a config or a bundle uses for ops, kinds and journal modes read back as themselves,
// and each failed op returns the error code os_unix.c returns for it.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "jbench/oracle/fault_loop.h"
#include "jbench/oracle/fault_vfs.h"

namespace jbench::oracle {
namespace {

TEST(FaultNames, every_name_reads_back_as_itself_and_unknown_names_are_refused) {
  for (IoOp op : kAllIoOps) EXPECT_EQ(io_op_from_string(to_string(op)), op);
  for (FaultKind kind : kAllFaultKinds) EXPECT_EQ(fault_kind_from_string(to_string(kind)), kind);
  for (FaultJournalMode mode : {FaultJournalMode::wal, FaultJournalMode::rollback}) {
    EXPECT_EQ(fault_journal_mode_from_string(to_string(mode)), mode);
  }
  EXPECT_FALSE(io_op_from_string("fsync").has_value());
  EXPECT_FALSE(fault_kind_from_string("power-loss").has_value());
  EXPECT_FALSE(fault_journal_mode_from_string("delete").has_value());
}

TEST(FaultNames, each_op_fails_with_its_own_extended_io_error) {
  EXPECT_EQ(io_error_code(IoOp::read), SQLITE_IOERR_READ);
  EXPECT_EQ(io_error_code(IoOp::write), SQLITE_IOERR_WRITE);
  EXPECT_EQ(io_error_code(IoOp::sync), SQLITE_IOERR_FSYNC);
  EXPECT_EQ(io_error_code(IoOp::truncate), SQLITE_IOERR_TRUNCATE);
  EXPECT_EQ(io_error_code(IoOp::lock), SQLITE_IOERR_LOCK);
  EXPECT_EQ(io_error_code(IoOp::unlock), SQLITE_IOERR_UNLOCK);
  EXPECT_EQ(io_error_code(IoOp::remove), SQLITE_IOERR_DELETE);
}

}  // namespace
}  // namespace jbench::oracle
