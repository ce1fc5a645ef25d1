#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <memory>
#include <vector>

#include "fs_util.h"
#include "jbench/bundle/sha256sums.h"
#include "jbench/common/sha256.h"

namespace jbench {
namespace {

using bundle_detail::errno_error;
using bundle_detail::UniqueFd;

constexpr std::size_t kChunkBytes = 64 * 1024;

struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};

}  // namespace

Result<std::string> fd_sha256(int fd, const std::string& label) {
  std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    return Error{fmt::format("cannot hash {}: OpenSSL could not set up SHA-256", label), 0};
  }
  std::vector<unsigned char> buf(kChunkBytes);
  off_t offset = 0;
  while (true) {
    const ssize_t n = ::pread(fd, buf.data(), buf.size(), offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno_error("cannot read {}", label);
    }
    if (n == 0) break;
    if (EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<std::size_t>(n)) != 1) {
      return Error{fmt::format("cannot hash {}: EVP_DigestUpdate failed", label), 0};
    }
    offset += n;
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest.data(), &length) != 1) {
    return Error{fmt::format("cannot hash {}: EVP_DigestFinal_ex failed", label), 0};
  }
  return lower_hex(digest.data(), length);
}

Result<std::string> file_sha256(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return errno_error("cannot open {}", path);
  return fd_sha256(fd.get(), path);
}

std::string sha256sums_line(std::string_view hex_digest, std::string_view relative_path) {
  std::string line;
  line.reserve(hex_digest.size() + relative_path.size() + 3);
  line.append(hex_digest);
  line.append("  ");
  line.append(relative_path);
  line.push_back('\n');
  return line;
}

}  // namespace jbench
