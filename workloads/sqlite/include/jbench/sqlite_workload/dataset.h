// The deterministic SQLite dataset the worker runs against.
//
// Content is a pure function of (rows, row_bytes, seed): the same inputs give the same rows on
// every machine (see docs/worker-protocol.md, "Dataset"). File bytes may differ between SQLite
// builds; content_sha256 is the identity to compare.
//
//   items(id INTEGER PRIMARY KEY, grp INTEGER, val INTEGER, payload BLOB), index items_grp(grp)
//   groups(grp INTEGER PRIMARY KEY, weight INTEGER)
//   meta(key TEXT PRIMARY KEY, value TEXT)   -- format, rows, row_bytes, groups, seed
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jbench/common/random.h"
#include "jbench/sqlite_workload/sqlite_db.h"

namespace jbench::sqlite_workload {

inline constexpr const char* kDatasetFormat = "jbench.sqlite_dataset/1";
inline constexpr std::uint64_t kMaxRows = 1'000'000'000;
inline constexpr std::uint32_t kMaxRowBytes = 1 << 20;
inline constexpr std::uint64_t kValRange = 1000;  // val and weight are uniform in [0, 1000)

struct DatasetSpec {
  std::string db_path;
  std::uint64_t rows = 0;
  std::uint32_t row_bytes = 0;
  std::uint64_t seed = 0;
};

// What a built dataset looks like, as recorded in its meta table.
struct DatasetShape {
  std::uint64_t rows = 0;
  std::uint32_t row_bytes = 0;
  std::uint64_t groups = 0;
};

// One group per 64 rows (rounded up), so a group holds ~64 rows whatever the size.
std::uint64_t group_count_for(std::uint64_t rows);

// Fills `out` with the next out.size() bytes of `rng`: one draw per 8 bytes, little-endian, the
// last draw's unused bytes discarded. Payloads of the dataset and of inserts both use it.
void fill_payload(SplitMix64& rng, std::vector<unsigned char>& out);

struct DatasetReport {
  DatasetShape shape;
  std::uint64_t db_bytes = 0;
  std::uint64_t page_size = 0;
  std::uint64_t page_count = 0;
  std::uint64_t build_ns = 0;  // create, fill, checkpoint; not the digest
  std::string content_sha256;
};

struct DatasetBuild {
  std::optional<DatasetReport> report;
  std::string error;
};

// Builds into "<db>.building" and renames it to `db_path` once complete and closed, so a crash
// never leaves a half-built dataset under the real name. Refuses to overwrite anything: an old
// "-wal" file beside a new database would be replayed into it.
DatasetBuild build_dataset(const DatasetSpec& spec);

struct ShapeRead {
  std::optional<DatasetShape> shape;
  std::string error;
};
// Checks `db` is a jbench dataset of this format and returns its shape.
ShapeRead read_dataset_shape(Database& db);

// SHA-256 over the canonical encoding of groups then items in key order (docs/worker-protocol.md).
std::optional<std::string> content_sha256(Database& db);

}  // namespace jbench::sqlite_workload
