// The VFS shim of fault_vfs.h: SQLite calls the C callbacks below through sqlite3_vfs and
// sqlite3_io_methods tables; each forwards to the wrapped (unix) VFS, except that named files
// keep their unsynced data in an in-memory image (PathState) and every counted operation asks
// Impl::on_point first whether it must fail.
#include "jbench/oracle/fault_vfs.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include "jbench/common/random.h"

namespace jbench::oracle {

std::uint64_t IoCounts::total() const {
  std::uint64_t sum = 0;
  for (std::uint64_t n : per_op) sum += n;
  return sum;
}

namespace {

// What a named file holds beyond its last sync. `image` is the whole logical content while
// `dirty`; when clean the real file is the content. Files here are small (a test database and
// its journal), so a whole-file image is simpler than an overlay and obviously right.
struct PathState {
  bool dirty = false;
  std::string image;
};

// SQLite allocates szOsFile bytes per open file: this header, then the wrapped VFS's file.
struct ShimFile {
  sqlite3_file base;  // first, so SQLite's sqlite3_file* is a ShimFile*
  FaultVfs::Impl* owner;
  PathState* state;         // null for nameless temporary files: they are not buffered
  const std::string* path;  // the key of `state`; null with it
  sqlite3_file* real;
};
constexpr std::size_t kRealFileOffset = (sizeof(ShimFile) + 15) / 16 * 16;

ShimFile* shim(sqlite3_file* f) { return reinterpret_cast<ShimFile*>(f); }

std::atomic<std::uint64_t> next_vfs_number{1};

}  // namespace

struct FaultVfs::Impl {
  FaultVfsOptions options;
  std::string name;
  sqlite3_vfs vfs{};
  sqlite3_vfs* real = nullptr;

  mutable std::mutex mutex;
  std::map<std::string, PathState> paths;  // std::map: pointers into it stay valid
  IoCounts counts;
  std::vector<IoOp> trace;
  std::optional<FaultSpec> fault;
  bool fired = false;
  std::optional<IoOp> fired_op;
  std::optional<IoOp> persistent_op;
  bool power_off = false;
  std::vector<FileEvent> events;  // with options.record_events

  // Under `mutex`.
  void record(FileEvent::Kind kind, const std::string& path, std::uint64_t offset = 0,
              std::string data = {}) {
    if (options.record_events) events.push_back({kind, path, offset, std::move(data)});
  }

  // What the disk had written back of its cache when the power went (FaultVfsOptions). Errors
  // are ignored: a power loss has no one to report to, and the check reads what is there.
  void persist_surviving_sectors() {
    const double p = options.unsynced_sector_survival;
    if (!(p > 0)) return;
    constexpr std::uint64_t kScale = 1'000'000;
    const auto threshold = static_cast<std::uint64_t>(std::min(p, 1.0) * kScale);
    SplitMix64 rng(options.survival_seed);
    for (auto& [path, state] : paths) {  // a std::map: the same order, so the same draws
      if (!state.dirty) continue;
      int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
      if (fd < 0) continue;
      std::string disk(state.image.size(), '\0');
      const ssize_t got = ::pread(fd, disk.data(), disk.size(), 0);
      const std::size_t on_disk = got > 0 ? static_cast<std::size_t>(got) : 0;
      constexpr std::size_t kSector = 512;
      for (std::size_t at = 0; at < state.image.size(); at += kSector) {
        const std::size_t n = std::min(kSector, state.image.size() - at);
        const bool unsynced =
            at + n > on_disk || std::memcmp(disk.data() + at, state.image.data() + at, n) != 0;
        if (unsynced && rng.below(kScale) < threshold) {
          [[maybe_unused]] ssize_t w =
              ::pwrite(fd, state.image.data() + at, n, static_cast<off_t>(at));
        }
      }
      ::close(fd);
    }
  }

  void cut() {
    power_off = true;
    persist_surviving_sectors();
    drop_unsynced();
  }

  void drop_unsynced() {
    for (auto& [path, state] : paths) {
      state.dirty = false;
      state.image.clear();
    }
  }

  // Counts one I/O point and says how it ends: SQLITE_OK to go ahead, or the error to return.
  int on_point(IoOp op) {
    std::lock_guard lock(mutex);
    const std::uint64_t nth_of_op = ++counts.per_op[static_cast<std::size_t>(op)];
    trace.push_back(op);
    if (power_off) return io_error_code(op);
    if (fault && !fired) {
      const bool hit =
          fault->op ? (*fault->op == op && nth_of_op == fault->nth) : (trace.size() == fault->nth);
      if (hit) {
        fired = true;
        fired_op = op;
        if (fault->kind == FaultKind::persistent_error) persistent_op = op;
        if (fault->kind == FaultKind::power_loss) cut();
        return io_error_code(op);
      }
    }
    if (persistent_op == op) return io_error_code(op);
    return SQLITE_OK;
  }

  bool is_powered_off() const {
    std::lock_guard lock(mutex);
    return power_off;
  }
};

namespace {

// os_unix.c writes at most 128 KiB - 1 bytes per call (it masks the length with 0x1ffff) and
// calls a shorter write a full disk: whole images go to and from the real file in pieces.
constexpr std::size_t kMaxRealIo = 64 * 1024;

// Reads the whole real file into the image, the first time a clean file is changed.
int load_image(ShimFile* f) {
  if (f->state->dirty) return SQLITE_OK;
  sqlite3_int64 size = 0;
  int rc = f->real->pMethods->xFileSize(f->real, &size);
  if (rc != SQLITE_OK) return rc;
  std::string image(static_cast<std::size_t>(size), '\0');
  for (std::size_t at = 0; at < image.size(); at += kMaxRealIo) {
    const std::size_t n = std::min(kMaxRealIo, image.size() - at);
    rc = f->real->pMethods->xRead(f->real, image.data() + at, static_cast<int>(n),
                                  static_cast<sqlite3_int64>(at));
    if (rc != SQLITE_OK) return rc;
  }
  f->state->image = std::move(image);
  f->state->dirty = true;
  return SQLITE_OK;
}

// Makes the real file equal the image.
int write_through(ShimFile* f) {
  const std::string& image = f->state->image;
  for (std::size_t at = 0; at < image.size(); at += kMaxRealIo) {
    const std::size_t n = std::min(kMaxRealIo, image.size() - at);
    int rc = f->real->pMethods->xWrite(f->real, image.data() + at, static_cast<int>(n),
                                       static_cast<sqlite3_int64>(at));
    if (rc != SQLITE_OK) return rc;
  }
  return f->real->pMethods->xTruncate(f->real, static_cast<sqlite3_int64>(image.size()));
}

int shim_close(sqlite3_file* file) {
  // The path's state stays: unsynced data outlives the handle, as in an OS page cache.
  ShimFile* f = shim(file);
  return f->real->pMethods ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
}

int shim_read(sqlite3_file* file, void* out, int amount, sqlite3_int64 offset) {
  ShimFile* f = shim(file);
  if (int rc = f->owner->on_point(IoOp::read); rc != SQLITE_OK) return rc;
  std::lock_guard lock(f->owner->mutex);
  if (!f->state || !f->state->dirty) return f->real->pMethods->xRead(f->real, out, amount, offset);
  // As os_unix.c does: a read past the end fills the rest with zeros and says it was short.
  const std::string& image = f->state->image;
  const auto begin = static_cast<std::size_t>(offset);
  const auto want = static_cast<std::size_t>(amount);
  const std::size_t have = begin < image.size() ? std::min(want, image.size() - begin) : 0;
  if (have > 0) std::memcpy(out, image.data() + begin, have);
  if (have < want) {
    std::memset(static_cast<char*>(out) + have, 0, want - have);
    return SQLITE_IOERR_SHORT_READ;
  }
  return SQLITE_OK;
}

int shim_write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  ShimFile* f = shim(file);
  if (int rc = f->owner->on_point(IoOp::write); rc != SQLITE_OK) return rc;
  std::lock_guard lock(f->owner->mutex);
  if (!f->state) return f->real->pMethods->xWrite(f->real, data, amount, offset);
  if (int rc = load_image(f); rc != SQLITE_OK) return rc;
  std::string& image = f->state->image;
  const auto begin = static_cast<std::size_t>(offset);
  const auto n = static_cast<std::size_t>(amount);
  if (image.size() < begin + n) image.resize(begin + n, '\0');
  std::memcpy(image.data() + begin, data, n);
  f->owner->record(FileEvent::Kind::write, *f->path, begin,
                   std::string(static_cast<const char*>(data), n));
  return SQLITE_OK;
}

int shim_truncate(sqlite3_file* file, sqlite3_int64 size) {
  ShimFile* f = shim(file);
  if (int rc = f->owner->on_point(IoOp::truncate); rc != SQLITE_OK) return rc;
  std::lock_guard lock(f->owner->mutex);
  if (!f->state) return f->real->pMethods->xTruncate(f->real, size);
  if (int rc = load_image(f); rc != SQLITE_OK) return rc;
  f->state->image.resize(static_cast<std::size_t>(size), '\0');
  f->owner->record(FileEvent::Kind::truncate, *f->path, static_cast<std::uint64_t>(size));
  return SQLITE_OK;
}

int shim_sync(sqlite3_file* file, int flags) {
  ShimFile* f = shim(file);
  if (int rc = f->owner->on_point(IoOp::sync); rc != SQLITE_OK) return rc;
  std::lock_guard lock(f->owner->mutex);
  if (f->state && f->state->dirty) {
    if (int rc = write_through(f); rc != SQLITE_OK) return rc;
    f->state->dirty = false;
    f->state->image.clear();
  }
  if (f->path) f->owner->record(FileEvent::Kind::sync, *f->path);
  if (!f->owner->options.real_fsync) return SQLITE_OK;
  return f->real->pMethods->xSync(f->real, flags);
}

int shim_file_size(sqlite3_file* file, sqlite3_int64* size) {
  ShimFile* f = shim(file);
  std::lock_guard lock(f->owner->mutex);
  if (f->state && f->state->dirty) {
    *size = static_cast<sqlite3_int64>(f->state->image.size());
    return SQLITE_OK;
  }
  return f->real->pMethods->xFileSize(f->real, size);
}

int shim_lock(sqlite3_file* file, int level) {
  ShimFile* f = shim(file);
  if (int rc = f->owner->on_point(IoOp::lock); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xLock(f->real, level);
}

int shim_unlock(sqlite3_file* file, int level) {
  ShimFile* f = shim(file);
  if (int rc = f->owner->on_point(IoOp::unlock); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xUnlock(f->real, level);
}

int shim_check_reserved_lock(sqlite3_file* file, int* out) {
  sqlite3_file* real = shim(file)->real;
  return real->pMethods->xCheckReservedLock(real, out);
}

int shim_file_control(sqlite3_file* file, int op, void* arg) {
  // A size hint or chunk size would make the unix VFS extend the real file behind the image.
  if (op == SQLITE_FCNTL_SIZE_HINT) return SQLITE_OK;
  if (op == SQLITE_FCNTL_CHUNK_SIZE) return SQLITE_NOTFOUND;
  sqlite3_file* real = shim(file)->real;
  return real->pMethods->xFileControl(real, op, arg);
}

int shim_sector_size(sqlite3_file* file) {
  sqlite3_file* real = shim(file)->real;
  return real->pMethods->xSectorSize(real);
}

int shim_device_characteristics(sqlite3_file* file) {
  sqlite3_file* real = shim(file)->real;
  return real->pMethods->xDeviceCharacteristics(real);
}

int shim_shm_map(sqlite3_file* file, int page, int page_size, int extend, void volatile** out) {
  sqlite3_file* real = shim(file)->real;
  return real->pMethods->xShmMap(real, page, page_size, extend, out);
}

int shim_shm_lock(sqlite3_file* file, int offset, int n, int flags) {
  sqlite3_file* real = shim(file)->real;
  return real->pMethods->xShmLock(real, offset, n, flags);
}

void shim_shm_barrier(sqlite3_file* file) {
  sqlite3_file* real = shim(file)->real;
  real->pMethods->xShmBarrier(real);
}

int shim_shm_unmap(sqlite3_file* file, int delete_flag) {
  sqlite3_file* real = shim(file)->real;
  return real->pMethods->xShmUnmap(real, delete_flag);
}

// Never memory-maps, so SQLite reads every page through xRead, which sees the image.
int shim_fetch(sqlite3_file*, sqlite3_int64, int, void** out) {
  *out = nullptr;
  return SQLITE_OK;
}

int shim_unfetch(sqlite3_file*, sqlite3_int64, void*) { return SQLITE_OK; }

const sqlite3_io_methods kShimMethods = {
    3,
    shim_close,
    shim_read,
    shim_write,
    shim_truncate,
    shim_sync,
    shim_file_size,
    shim_lock,
    shim_unlock,
    shim_check_reserved_lock,
    shim_file_control,
    shim_sector_size,
    shim_device_characteristics,
    shim_shm_map,
    shim_shm_lock,
    shim_shm_barrier,
    shim_shm_unmap,
    shim_fetch,
    shim_unfetch,
};

FaultVfs::Impl* owner_of(sqlite3_vfs* vfs) { return static_cast<FaultVfs::Impl*>(vfs->pAppData); }

int vfs_open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file, int flags,
             int* out_flags) {
  FaultVfs::Impl* owner = owner_of(vfs);
  ShimFile* f = shim(file);
  f->base.pMethods = nullptr;  // until the real open succeeded: SQLite then skips xClose
  f->owner = owner;
  f->state = nullptr;
  f->path = nullptr;
  f->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + kRealFileOffset);
  if (owner->is_powered_off()) return SQLITE_CANTOPEN;
  // The original pointer, not a copy: SQLite finds URI parameters behind its terminator.
  int rc = owner->real->xOpen(owner->real, name, f->real, flags, out_flags);
  if (rc != SQLITE_OK) {
    if (f->real->pMethods) f->real->pMethods->xClose(f->real);
    return rc;
  }
  if (name) {
    std::lock_guard lock(owner->mutex);
    auto& [path, state] = *owner->paths.try_emplace(name).first;
    f->state = &state;
    f->path = &path;
    owner->record(FileEvent::Kind::open, path);
  }
  f->base.pMethods = &kShimMethods;
  return SQLITE_OK;
}

int vfs_delete(sqlite3_vfs* vfs, const char* name, int sync_dir) {
  FaultVfs::Impl* owner = owner_of(vfs);
  if (int rc = owner->on_point(IoOp::remove); rc != SQLITE_OK) return rc;
  int rc = owner->real->xDelete(owner->real, name, sync_dir);
  // Reset rather than erase: a handle still open on the path keeps a pointer to its state.
  std::lock_guard lock(owner->mutex);
  if (auto it = owner->paths.find(name); it != owner->paths.end()) it->second = PathState{};
  if (rc == SQLITE_OK) owner->record(FileEvent::Kind::remove, name);
  return rc;
}

int vfs_access(sqlite3_vfs* vfs, const char* name, int flags, int* out) {
  sqlite3_vfs* real = owner_of(vfs)->real;
  return real->xAccess(real, name, flags, out);
}

int vfs_full_pathname(sqlite3_vfs* vfs, const char* name, int n, char* out) {
  sqlite3_vfs* real = owner_of(vfs)->real;
  return real->xFullPathname(real, name, n, out);
}

void* vfs_dl_open(sqlite3_vfs* vfs, const char* name) {
  sqlite3_vfs* real = owner_of(vfs)->real;
  return real->xDlOpen(real, name);
}

void vfs_dl_error(sqlite3_vfs* vfs, int n, char* out) {
  sqlite3_vfs* real = owner_of(vfs)->real;
  real->xDlError(real, n, out);
}

void (*vfs_dl_sym(sqlite3_vfs* vfs, void* handle, const char* symbol))(void) {
  sqlite3_vfs* real = owner_of(vfs)->real;
  return real->xDlSym(real, handle, symbol);
}

void vfs_dl_close(sqlite3_vfs* vfs, void* handle) {
  sqlite3_vfs* real = owner_of(vfs)->real;
  real->xDlClose(real, handle);
}

int vfs_randomness(sqlite3_vfs* vfs, int n, char* out) {
  sqlite3_vfs* real = owner_of(vfs)->real;
  return real->xRandomness(real, n, out);
}

int vfs_sleep(sqlite3_vfs* vfs, int microseconds) {
  sqlite3_vfs* real = owner_of(vfs)->real;
  return real->xSleep(real, microseconds);
}

int vfs_current_time(sqlite3_vfs* vfs, double* out) {
  sqlite3_vfs* real = owner_of(vfs)->real;
  return real->xCurrentTime(real, out);
}

int vfs_get_last_error(sqlite3_vfs* vfs, int n, char* out) {
  sqlite3_vfs* real = owner_of(vfs)->real;
  return real->xGetLastError ? real->xGetLastError(real, n, out) : 0;
}

int vfs_current_time_int64(sqlite3_vfs* vfs, sqlite3_int64* out) {
  sqlite3_vfs* real = owner_of(vfs)->real;
  if (real->iVersion >= 2 && real->xCurrentTimeInt64) return real->xCurrentTimeInt64(real, out);
  double days = 0;
  int rc = real->xCurrentTime(real, &days);
  *out = static_cast<sqlite3_int64>(days * 86400000.0);
  return rc;
}

}  // namespace

FaultVfs::FaultVfs(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<FaultVfs>> FaultVfs::create(FaultVfsOptions options) {
  if (int rc = sqlite3_initialize(); rc != SQLITE_OK) {
    return Error{std::string("cannot initialise SQLite: ") + sqlite3_errstr(rc), 0,
                 ErrorKind::host};
  }
  sqlite3_vfs* real = sqlite3_vfs_find(nullptr);
  if (!real) return Error{"SQLite has no default VFS to wrap", 0, ErrorKind::host};
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->real = real;
  impl->name = "jbench-fault-" + std::to_string(next_vfs_number++);
  sqlite3_vfs& v = impl->vfs;
  v.iVersion = 2;  // version 3 adds only the system-call overrides, which are not forwarded
  v.szOsFile = static_cast<int>(kRealFileOffset) + real->szOsFile;
  v.mxPathname = real->mxPathname;
  v.zName = impl->name.c_str();
  v.pAppData = impl.get();
  v.xOpen = vfs_open;
  v.xDelete = vfs_delete;
  v.xAccess = vfs_access;
  v.xFullPathname = vfs_full_pathname;
  v.xDlOpen = vfs_dl_open;
  v.xDlError = vfs_dl_error;
  v.xDlSym = vfs_dl_sym;
  v.xDlClose = vfs_dl_close;
  v.xRandomness = vfs_randomness;
  v.xSleep = vfs_sleep;
  v.xCurrentTime = vfs_current_time;
  v.xGetLastError = vfs_get_last_error;
  v.xCurrentTimeInt64 = vfs_current_time_int64;
  if (int rc = sqlite3_vfs_register(&v, /*makeDflt=*/0); rc != SQLITE_OK) {
    return Error{"cannot register the fault VFS: " + std::string(sqlite3_errstr(rc)), 0,
                 ErrorKind::host};
  }
  return std::unique_ptr<FaultVfs>(new FaultVfs(std::move(impl)));
}

FaultVfs::~FaultVfs() { sqlite3_vfs_unregister(&impl_->vfs); }

const std::string& FaultVfs::name() const { return impl_->name; }

void FaultVfs::arm(const FaultSpec& fault) {
  std::lock_guard lock(impl_->mutex);
  impl_->fault = fault;
  impl_->fired = false;
  impl_->fired_op.reset();
  impl_->persistent_op.reset();
}

void FaultVfs::cut_power() {
  std::lock_guard lock(impl_->mutex);
  impl_->cut();
}

Status FaultVfs::write_back_unsynced() {
  std::lock_guard lock(impl_->mutex);
  for (auto& [path, state] : impl_->paths) {
    if (!state.dirty) continue;
    // The file may be closed already, so this goes to the file itself rather than a handle.
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) continue;  // deleted behind the shim: nothing to write back
      return Error{"cannot open '" + path + "' to write back: " + std::strerror(errno), errno};
    }
    const std::string& image = state.image;
    std::size_t done = 0;
    while (done < image.size()) {
      ssize_t n = ::pwrite(fd, image.data() + done, image.size() - done, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        int err = errno;
        ::close(fd);
        return Error{"cannot write back '" + path + "': " + std::strerror(err), err};
      }
      done += static_cast<std::size_t>(n);
    }
    if (::ftruncate(fd, static_cast<off_t>(image.size())) != 0) {
      int err = errno;
      ::close(fd);
      return Error{"cannot truncate '" + path + "' to its image: " + std::strerror(err), err};
    }
    ::close(fd);
    state.dirty = false;
    state.image.clear();
  }
  return {};
}

IoCounts FaultVfs::counts() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->counts;
}

std::vector<IoOp> FaultVfs::trace() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->trace;
}

bool FaultVfs::fault_fired() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->fired;
}

std::optional<IoOp> FaultVfs::fired_op() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->fired_op;
}

bool FaultVfs::powered_off() const { return impl_->is_powered_off(); }

void FaultVfs::mark(FileEvent::Kind kind) {
  std::lock_guard lock(impl_->mutex);
  impl_->record(kind, "");
}

std::vector<FileEvent> FaultVfs::events() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->events;
}

}  // namespace jbench::oracle
