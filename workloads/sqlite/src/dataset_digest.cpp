// The dataset's content identity: SHA-256 over a canonical, SQLite-version-independent encoding
// of every row, streamed (a dataset can be far larger than memory).
#include <openssl/evp.h>

#include <array>
#include <memory>

#include "jbench/sqlite_workload/dataset.h"

namespace jbench::sqlite_workload {
namespace {

struct DigestDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};

void put_u64(EVP_MD_CTX* ctx, std::int64_t value) {
  std::array<unsigned char, 8> bytes{};
  auto v = static_cast<std::uint64_t>(value);
  for (auto& b : bytes) {  // little-endian, whatever the host
    b = static_cast<unsigned char>(v & 0xff);
    v >>= 8;
  }
  EVP_DigestUpdate(ctx, bytes.data(), bytes.size());
}

}  // namespace

std::optional<std::string> content_sha256(Database& db) {
  std::unique_ptr<EVP_MD_CTX, DigestDeleter> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) return std::nullopt;

  // Record tags keep the two tables' encodings from ever colliding.
  Statement groups;
  if (db.prepare("SELECT grp, weight FROM groups ORDER BY grp", groups) != SQLITE_OK)
    return std::nullopt;
  int rc;
  while ((rc = sqlite3_step(groups.get())) == SQLITE_ROW) {
    EVP_DigestUpdate(ctx.get(), "g", 1);
    put_u64(ctx.get(), sqlite3_column_int64(groups.get(), 0));
    put_u64(ctx.get(), sqlite3_column_int64(groups.get(), 1));
  }
  if (rc != SQLITE_DONE) return std::nullopt;

  Statement items;
  if (db.prepare("SELECT id, grp, val, payload FROM items ORDER BY id", items) != SQLITE_OK) {
    return std::nullopt;
  }
  while ((rc = sqlite3_step(items.get())) == SQLITE_ROW) {
    EVP_DigestUpdate(ctx.get(), "i", 1);
    for (int col = 0; col < 3; ++col) put_u64(ctx.get(), sqlite3_column_int64(items.get(), col));
    const void* blob = sqlite3_column_blob(items.get(), 3);
    const int size = sqlite3_column_bytes(items.get(), 3);
    put_u64(ctx.get(), size);
    if (size > 0) EVP_DigestUpdate(ctx.get(), blob, static_cast<std::size_t>(size));
  }
  if (rc != SQLITE_DONE) return std::nullopt;

  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int md_len = 0;
  if (EVP_DigestFinal_ex(ctx.get(), md.data(), &md_len) != 1) return std::nullopt;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < md_len; ++i) {
    hex.push_back(kHex[md[i] >> 4]);
    hex.push_back(kHex[md[i] & 0xf]);
  }
  return hex;
}

}  // namespace jbench::sqlite_workload
