#include "jbench/sqlite_workload/dataset.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "jbench/common/clock.h"
#include "jbench/common/random.h"
#include "jbench/stats/decimal.h"

namespace jbench::sqlite_workload {
namespace {

bool path_exists(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0 || errno != ENOENT;
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The rename is durable only once the directory entry is on disk.
bool fsync_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

std::string sql_error(Database& db, int rc, const char* what) {
  return fmt::format("{}: {} ({})", what, db.errmsg(), result_code_name(rc));
}

constexpr const char* kSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE groups(grp INTEGER PRIMARY KEY, weight INTEGER NOT NULL);
CREATE TABLE items(id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, val INTEGER NOT NULL,
                   payload BLOB NOT NULL);
CREATE INDEX items_grp ON items(grp);
)sql";

// Generates and inserts every row inside the already-open transaction. Order of draws (the
// contract): all groups' weights, then per item grp, val, payload.
std::string fill(Database& db, const DatasetSpec& spec, std::uint64_t groups) {
  SplitMix64 rng(spec.seed);
  Statement group_insert;
  Statement item_insert;
  Statement meta_insert;
  int rc = db.prepare("INSERT INTO groups(grp, weight) VALUES(?, ?)", group_insert);
  if (rc == SQLITE_OK) rc = db.prepare("INSERT INTO items VALUES(?, ?, ?, ?)", item_insert);
  if (rc == SQLITE_OK) rc = db.prepare("INSERT INTO meta VALUES(?, ?)", meta_insert);
  if (rc != SQLITE_OK) return sql_error(db, rc, "prepare");

  for (std::uint64_t g = 0; g < groups && rc == SQLITE_OK; ++g) {
    sqlite3_bind_int64(group_insert.get(), 1, static_cast<sqlite3_int64>(g));
    sqlite3_bind_int64(group_insert.get(), 2, static_cast<sqlite3_int64>(rng.below(kValRange)));
    rc = sqlite3_step(group_insert.get()) == SQLITE_DONE ? sqlite3_reset(group_insert.get())
                                                         : sqlite3_extended_errcode(db.get());
  }
  std::vector<unsigned char> payload(spec.row_bytes);
  for (std::uint64_t id = 1; id <= spec.rows && rc == SQLITE_OK; ++id) {
    const auto grp = rng.below(groups);
    const auto val = rng.below(kValRange);
    fill_payload(rng, payload);
    sqlite3_bind_int64(item_insert.get(), 1, static_cast<sqlite3_int64>(id));
    sqlite3_bind_int64(item_insert.get(), 2, static_cast<sqlite3_int64>(grp));
    sqlite3_bind_int64(item_insert.get(), 3, static_cast<sqlite3_int64>(val));
    bind_blob(item_insert.get(), 4, payload);
    rc = sqlite3_step(item_insert.get()) == SQLITE_DONE ? sqlite3_reset(item_insert.get())
                                                        : sqlite3_extended_errcode(db.get());
  }
  const std::pair<const char*, std::string> meta[] = {{"format", kDatasetFormat},
                                                      {"rows", std::to_string(spec.rows)},
                                                      {"row_bytes", std::to_string(spec.row_bytes)},
                                                      {"groups", std::to_string(groups)},
                                                      {"seed", std::to_string(spec.seed)}};
  for (const auto& [key, value] : meta) {
    if (rc != SQLITE_OK) break;
    sqlite3_bind_text(meta_insert.get(), 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(meta_insert.get(), 2, value.c_str(), -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(meta_insert.get()) == SQLITE_DONE ? sqlite3_reset(meta_insert.get())
                                                        : sqlite3_extended_errcode(db.get());
  }
  return rc == SQLITE_OK ? "" : sql_error(db, rc, "insert");
}

// Removes a partial build when the build fails, so a retry is not refused because of it. A file
// left by a build that crashed is not touched: the next build refuses and names it.
struct PartialBuild {
  std::string path;
  bool keep = false;
  ~PartialBuild() {
    if (keep) return;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) ::unlink((path + suffix).c_str());
  }
};

}  // namespace

void fill_payload(SplitMix64& rng, std::vector<unsigned char>& out) {
  for (std::size_t i = 0; i < out.size(); i += 8) {
    std::uint64_t x = rng.next();
    for (std::size_t j = i; j < out.size() && j < i + 8; ++j, x >>= 8) {
      out[j] = static_cast<unsigned char>(x & 0xff);
    }
  }
}

std::uint64_t group_count_for(std::uint64_t rows) { return rows == 0 ? 1 : (rows + 63) / 64; }

DatasetBuild build_dataset(const DatasetSpec& spec) {
  if (spec.rows < 1 || spec.rows > kMaxRows) {
    return {std::nullopt, fmt::format("--rows must be in 1..{}", kMaxRows)};
  }
  if (spec.row_bytes > kMaxRowBytes) {
    return {std::nullopt, fmt::format("--row-bytes must be in 0..{}", kMaxRowBytes)};
  }
  const std::string tmp = spec.db_path + ".building";
  for (const std::string& p : {spec.db_path, spec.db_path + "-wal", spec.db_path + "-shm", tmp,
                               tmp + "-wal", tmp + "-shm"}) {
    if (path_exists(p)) {
      return {std::nullopt, fmt::format("{} already exists; remove it or choose another --db", p)};
    }
  }

  DatasetReport report;
  report.shape = {spec.rows, spec.row_bytes, group_count_for(spec.rows)};
  const std::uint64_t t0 = monotonic_ns();
  PartialBuild partial{tmp};  // declared before `db`, so it runs after the connection is closed
  Database db;
  std::string error;
  int rc = Database::open(tmp, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, db, error);
  if (rc != SQLITE_OK) return {std::nullopt, fmt::format("cannot create {}: {}", tmp, error)};

  // page_size is set explicitly so the layout does not depend on the build's default.
  rc = db.exec("PRAGMA page_size=4096; PRAGMA synchronous=NORMAL");
  if (rc != SQLITE_OK) return {std::nullopt, sql_error(db, rc, "pragma")};
  if (db.query_text("PRAGMA journal_mode=WAL") != "wal") {
    return {std::nullopt, "the database refused journal_mode=WAL"};
  }
  rc = db.exec("BEGIN");
  if (rc == SQLITE_OK) rc = db.exec(kSchema);
  if (rc != SQLITE_OK) return {std::nullopt, sql_error(db, rc, "schema")};
  error = fill(db, spec, report.shape.groups);
  if (!error.empty()) return {std::nullopt, error};
  rc = db.exec("COMMIT");
  if (rc == SQLITE_OK) rc = db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  if (rc != SQLITE_OK) return {std::nullopt, sql_error(db, rc, "commit")};
  report.build_ns = elapsed_ns(t0, monotonic_ns());

  report.page_size = static_cast<std::uint64_t>(db.query_int("PRAGMA page_size").value_or(0));
  report.page_count = static_cast<std::uint64_t>(db.query_int("PRAGMA page_count").value_or(0));
  auto digest = content_sha256(db);
  if (!digest) return {std::nullopt, "cannot compute the content digest: " + db.errmsg()};
  report.content_sha256 = std::move(*digest);
  rc = db.close();  // the last connection checkpoints and removes the -wal file
  if (rc != SQLITE_OK) return {std::nullopt, sql_error(db, rc, "close")};
  if (path_exists(tmp + "-wal")) return {std::nullopt, tmp + "-wal was left behind after close"};
  if (std::rename(tmp.c_str(), spec.db_path.c_str()) != 0 ||
      !fsync_directory(directory_of(spec.db_path))) {
    return {std::nullopt, fmt::format("cannot move {} into place: {}", tmp, std::strerror(errno))};
  }
  struct stat st {};
  if (stat(spec.db_path.c_str(), &st) != 0) {
    return {std::nullopt, fmt::format("stat {}: {}", spec.db_path, std::strerror(errno))};
  }
  report.db_bytes = static_cast<std::uint64_t>(st.st_size);
  partial.keep = true;
  return {report, ""};
}

ShapeRead read_dataset_shape(Database& db) {
  const auto meta = [&](const char* key) {
    return db.query_text(fmt::format("SELECT value FROM meta WHERE key = '{}'", key));
  };
  const auto format = meta("format");
  if (format != kDatasetFormat) {
    return {std::nullopt, fmt::format("not a {} database (meta.format is {})", kDatasetFormat,
                                      format.value_or("missing"))};
  }
  const auto number = [&](const char* key) {
    return stats::parse_decimal_u64(meta(key).value_or(""));
  };
  const auto rows = number("rows");
  const auto row_bytes = number("row_bytes");
  const auto groups = number("groups");
  if (!rows || !row_bytes || !groups || *rows < 1 || *rows > kMaxRows || *groups < 1 ||
      *row_bytes > kMaxRowBytes) {
    return {std::nullopt,
            "the meta table lacks rows, row_bytes or groups, or holds impossible ones"};
  }
  return {DatasetShape{*rows, static_cast<std::uint32_t>(*row_bytes), *groups}, ""};
}

}  // namespace jbench::sqlite_workload
