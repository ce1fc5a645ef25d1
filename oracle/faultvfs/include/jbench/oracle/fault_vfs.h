// A SQLite VFS shim that counts every I/O point of a connection and can fail one of them, fail
// one kind from some point on, or cut the power there (docs/oracle-faults.md).
//
//   auto vfs = FaultVfs::create();
//   if (!vfs) return vfs.error();
//   (*vfs)->arm({FaultKind::transient_error, 3, IoOp::write});   // the 3rd write fails once
//   sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, (*vfs)->name().c_str());
//   ... statements ...; sqlite3_close_v2(db);
//   (*vfs)->counts().of(IoOp::write);   // how many writes the connection made
//
// The model. The shim wraps the default (unix) VFS; it registers under a name of its own and is
// never the default, so only connections that name it go through it. Every file with a name (the
// database, its rollback journal, its WAL) keeps the data written since its last xSync in this
// process's memory: xWrite and xTruncate change that in-memory image, xRead and xFileSize see it,
// and xSync writes the image through to the real file. A power cut drops every image, so the disk
// holds exactly what was synced (or, if asked, that plus a seeded subset of the unsynced
// sectors); from then on every counted operation (and xOpen, xDelete) fails.
// Because unsynced data lives only in memory, a SIGKILL of a process using the shim is a power
// loss too. A clean end (no power loss) is write_back_unsynced(): what the OS would write anyway.
//
// Limits: one process, and every connection to a file must use the same FaultVfs (another VFS
// would not see the images). Creating and deleting files is durable at once (directory entries
// are not modelled), a sync is atomic and whole-file, a sector never tears,
// xShm* (the WAL index) passes through, xFetch never maps (so every read sees the image), and
// nameless temporary files are counted and faulted but not buffered.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"

namespace jbench::oracle {

// The operations the shim counts: each call of one is an I/O point. xCheckReservedLock,
// xFileSize, xFileControl, xOpen and xShm* are not points (they pass through uncounted).
enum class IoOp { read, write, sync, truncate, lock, unlock, remove };
inline constexpr std::array<IoOp, 7> kAllIoOps = {
    IoOp::read, IoOp::write, IoOp::sync, IoOp::truncate, IoOp::lock, IoOp::unlock, IoOp::remove};
std::string_view to_string(IoOp op);
std::optional<IoOp> io_op_from_string(std::string_view name);
// The extended result code a failed `op` returns, as os_unix.c does for a failed system call:
// SQLITE_IOERR_READ, _WRITE, _FSYNC, _TRUNCATE, _LOCK, _UNLOCK, _DELETE.
int io_error_code(IoOp op);

enum class FaultKind {
  transient_error,   // the chosen point fails with io_error_code(op); later ones work
  persistent_error,  // the chosen point and every later operation of the same op fail
  power_loss,        // at the chosen point unsynced data is dropped and everything fails
};
inline constexpr std::array<FaultKind, 3> kAllFaultKinds = {
    FaultKind::transient_error, FaultKind::persistent_error, FaultKind::power_loss};
std::string_view to_string(FaultKind kind);
std::optional<FaultKind> fault_kind_from_string(std::string_view name);

// Which point a fault hits: the `nth` (1-based) operation of kind `op`, or, without `op`, the
// nth I/O point of any kind (the numbering of trace()).
struct FaultSpec {
  FaultKind kind = FaultKind::transient_error;
  std::uint64_t nth = 1;
  std::optional<IoOp> op;
};

struct IoCounts {
  std::array<std::uint64_t, kAllIoOps.size()> per_op{};
  std::uint64_t of(IoOp op) const { return per_op[static_cast<std::size_t>(op)]; }
  std::uint64_t total() const;
};

// One change to what a named file holds, as the shim saw it, in order (FaultVfs::events()): what
// crash-state exploration (crash_states.h) replays. The marks come from the program driving the
// connection (FaultVfs::mark), not from SQLite.
struct FileEvent {
  enum class Kind {
    open,          // the file exists from here on (created at once, empty if new)
    write,         // `data` at `offset`
    truncate,      // to `offset` bytes
    sync,          // everything written to it so far is durable
    remove,        // gone at once
    commit_begin,  // mark: the driver is about to run COMMIT
    commit_done,   // mark: COMMIT returned SQLITE_OK
  };
  Kind kind = Kind::write;
  std::string path;  // as SQLite named the file; empty for a mark
  std::uint64_t offset = 0;
  std::string data;
};

struct FaultVfsOptions {
  // Whether xSync also fsyncs the real file. The power loss this shim models does not need it
  // (the page cache survives the process); turn it on to be durable against a real crash too.
  bool real_fsync = true;
  // At a power cut, the chance in [0, 1] that each unsynced 512-byte sector (one whose image
  // differs from the real file) reaches the disk anyway, drawn from `survival_seed`: a disk that
  // writes back part of its cache, in any order. 0, the default: nothing unsynced survives.
  // Unsynced truncations never survive; nor do sectors in part (no torn sectors).
  double unsynced_sector_survival = 0;
  std::uint64_t survival_seed = 0;
  // Keep every FileEvent (the bytes of every write): for one recorded run, not for a fault loop.
  bool record_events = false;
};

class FaultVfs {
 public:
  // Registers a new shim over the current default VFS, under a fresh name ("jbench-fault-<n>").
  static Result<std::unique_ptr<FaultVfs>> create(FaultVfsOptions options = {});
  // Unregisters. Every connection using it must be closed first.
  ~FaultVfs();
  FaultVfs(const FaultVfs&) = delete;
  FaultVfs& operator=(const FaultVfs&) = delete;

  // The name to give sqlite3_open_v2 as zVfs.
  const std::string& name() const;

  // At most one fault is armed; arming again replaces it (and clears a persistent failure).
  void arm(const FaultSpec& fault);
  // Cuts the power now, as if a power_loss fault had hit the next point.
  void cut_power();
  // Writes every unsynced image through to its file: a clean shutdown rather than a power loss.
  Status write_back_unsynced();

  IoCounts counts() const;
  // Every I/O point so far, in order (the point numbered n is trace()[n - 1]).
  std::vector<IoOp> trace() const;
  // Whether the armed fault has hit its point, and which operation that point was.
  bool fault_fired() const;
  std::optional<IoOp> fired_op() const;
  bool powered_off() const;
  // With record_events: adds a mark (commit_begin, commit_done) in order among the file events;
  // and every event so far.
  void mark(FileEvent::Kind kind);
  std::vector<FileEvent> events() const;

  struct Impl;

 private:
  explicit FaultVfs(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace jbench::oracle
