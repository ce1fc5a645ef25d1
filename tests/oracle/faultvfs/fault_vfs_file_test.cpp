// The shim's file model through its sqlite3_vfs directly, byte for byte: what a read sees before
// a sync, and what the real file holds after a power cut.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

#include "jbench/oracle/fault_vfs.h"
#include "temp_dir.h"

namespace jbench::oracle {
namespace {

std::string disk_content(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// One file opened through the shim's sqlite3_vfs, closed on destruction.
class ShimFileHandle {
 public:
  ShimFileHandle(const FaultVfs& vfs, const std::string& path) : path_(path) {
    vfs_ = sqlite3_vfs_find(vfs.name().c_str());
    if (!vfs_) {
      ADD_FAILURE() << "the shim is not registered";
      return;
    }
    storage_ = std::make_unique<char[]>(static_cast<std::size_t>(vfs_->szOsFile));
    file_ = reinterpret_cast<sqlite3_file*>(storage_.get());
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MAIN_DB;
    int rc = vfs_->xOpen(vfs_, path_.c_str(), file_, flags, nullptr);
    if (rc != SQLITE_OK) ADD_FAILURE() << "xOpen: " << sqlite3_errstr(rc);
  }
  ~ShimFileHandle() {
    if (file_ && file_->pMethods) file_->pMethods->xClose(file_);
  }
  int write(const std::string& bytes, sqlite3_int64 offset) {
    return file_->pMethods->xWrite(file_, bytes.data(), static_cast<int>(bytes.size()), offset);
  }
  int read(std::string& out, int amount, sqlite3_int64 offset) {
    out.assign(static_cast<std::size_t>(amount), '?');
    return file_->pMethods->xRead(file_, out.data(), amount, offset);
  }
  int sync() { return file_->pMethods->xSync(file_, SQLITE_SYNC_NORMAL); }
  int truncate(sqlite3_int64 size) { return file_->pMethods->xTruncate(file_, size); }
  sqlite3_int64 size() {
    sqlite3_int64 n = -1;
    EXPECT_EQ(file_->pMethods->xFileSize(file_, &n), SQLITE_OK);
    return n;
  }

 private:
  std::string path_;
  sqlite3_vfs* vfs_ = nullptr;
  std::unique_ptr<char[]> storage_;
  sqlite3_file* file_ = nullptr;
};

std::unique_ptr<FaultVfs> make_unsynced_vfs() {
  auto vfs = FaultVfs::create({.real_fsync = false});
  if (!vfs) ADD_FAILURE() << vfs.error().message;
  return std::move(vfs).value();
}

TEST(FaultVfsFile, reads_see_unsynced_writes_that_the_disk_does_not_have) {
  jbench::test::TempDir dir;
  const std::string path = dir.path() + "/f";
  auto vfs = make_unsynced_vfs();
  ShimFileHandle f(*vfs, path);
  ASSERT_EQ(f.write("hello", 0), SQLITE_OK);
  std::string got;
  EXPECT_EQ(f.read(got, 5, 0), SQLITE_OK);
  EXPECT_EQ(got, "hello");
  EXPECT_EQ(f.size(), 5);
  EXPECT_EQ(disk_content(path), "");
  ASSERT_EQ(f.sync(), SQLITE_OK);
  EXPECT_EQ(disk_content(path), "hello");
}

TEST(FaultVfsFile, a_read_past_the_end_is_short_and_zero_filled) {
  jbench::test::TempDir dir;
  auto vfs = make_unsynced_vfs();
  ShimFileHandle f(*vfs, dir.path() + "/f");
  ASSERT_EQ(f.write("abc", 0), SQLITE_OK);
  std::string got;
  EXPECT_EQ(f.read(got, 5, 1), SQLITE_IOERR_SHORT_READ);
  EXPECT_EQ(got, std::string("bc\0\0\0", 5));
}

TEST(FaultVfsFile, power_loss_leaves_exactly_the_synced_bytes) {
  jbench::test::TempDir dir;
  const std::string path = dir.path() + "/f";
  auto vfs = make_unsynced_vfs();
  ShimFileHandle f(*vfs, path);
  ASSERT_EQ(f.write("synced-part", 0), SQLITE_OK);
  ASSERT_EQ(f.sync(), SQLITE_OK);
  ASSERT_EQ(f.write("OVERWRITTEN-and-longer", 0), SQLITE_OK);  // overwrites and extends
  ASSERT_EQ(f.truncate(4), SQLITE_OK);
  EXPECT_EQ(f.size(), 4);
  vfs->cut_power();
  EXPECT_EQ(disk_content(path), "synced-part");
  EXPECT_EQ(f.write("x", 0), SQLITE_IOERR_WRITE) << "every later I/O fails";
  EXPECT_EQ(f.sync(), SQLITE_IOERR_FSYNC);
  EXPECT_EQ(disk_content(path), "synced-part");
}

// 64 sectors synced as 'o', then all overwritten with 'n' and not synced; a cut with the given
// survival chance. Returns the disk content.
std::string cut_after_overwriting_64_sectors(double survival, std::uint64_t seed) {
  jbench::test::TempDir dir;
  const std::string path = dir.path() + "/f";
  auto vfs = FaultVfs::create(
      {.real_fsync = false, .unsynced_sector_survival = survival, .survival_seed = seed});
  if (!vfs) {
    ADD_FAILURE() << vfs.error().message;
    return {};
  }
  {
    ShimFileHandle f(**vfs, path);
    EXPECT_EQ(f.write(std::string(64 * 512, 'o'), 0), SQLITE_OK);
    EXPECT_EQ(f.sync(), SQLITE_OK);
    EXPECT_EQ(f.write(std::string(64 * 512, 'n'), 0), SQLITE_OK);
    (*vfs)->cut_power();
  }
  return disk_content(path);
}

TEST(FaultVfsFile, power_loss_with_sector_survival_keeps_whole_sectors_old_or_new) {
  std::string disk = cut_after_overwriting_64_sectors(0.5, 7);
  ASSERT_EQ(disk.size(), 64u * 512);
  std::size_t survived = 0;
  for (std::size_t at = 0; at < disk.size(); at += 512) {
    const std::string sector = disk.substr(at, 512);
    const bool old_sector = sector == std::string(512, 'o');
    const bool new_sector = sector == std::string(512, 'n');
    EXPECT_TRUE(old_sector || new_sector) << "sector " << at / 512 << " is torn";
    survived += new_sector ? 1 : 0;
  }
  EXPECT_GT(survived, 0u);
  EXPECT_LT(survived, 64u);
  EXPECT_EQ(cut_after_overwriting_64_sectors(0.5, 7), disk) << "the same seed, the same sectors";
  EXPECT_EQ(cut_after_overwriting_64_sectors(0, 7), std::string(64 * 512, 'o'));
  EXPECT_EQ(cut_after_overwriting_64_sectors(1, 7), std::string(64 * 512, 'n'));
}

TEST(FaultVfsFile, a_truncate_is_durable_only_after_a_sync) {
  jbench::test::TempDir dir;
  const std::string path = dir.path() + "/f";
  auto vfs = make_unsynced_vfs();
  ShimFileHandle f(*vfs, path);
  ASSERT_EQ(f.write(std::string(8192, 'p'), 0), SQLITE_OK);
  ASSERT_EQ(f.sync(), SQLITE_OK);
  ASSERT_EQ(f.truncate(100), SQLITE_OK);
  EXPECT_EQ(f.size(), 100);
  EXPECT_EQ(std::filesystem::file_size(path), 8192u);
  ASSERT_EQ(f.sync(), SQLITE_OK);
  EXPECT_EQ(std::filesystem::file_size(path), 100u);
}

TEST(FaultVfsFile, the_nth_point_of_any_op_is_the_nth_entry_of_the_trace) {
  jbench::test::TempDir dir;
  auto vfs = make_unsynced_vfs();
  ShimFileHandle f(*vfs, dir.path() + "/f");
  vfs->arm({FaultKind::transient_error, 3, std::nullopt});
  EXPECT_EQ(f.write("a", 0), SQLITE_OK);
  EXPECT_EQ(f.sync(), SQLITE_OK);
  EXPECT_EQ(f.truncate(0), SQLITE_IOERR_TRUNCATE);
  EXPECT_EQ(f.write("b", 0), SQLITE_OK);
  EXPECT_EQ(vfs->trace(),
            (std::vector<IoOp>{IoOp::write, IoOp::sync, IoOp::truncate, IoOp::write}));
  EXPECT_EQ(vfs->fired_op(), IoOp::truncate);
}

}  // namespace
}  // namespace jbench::oracle
