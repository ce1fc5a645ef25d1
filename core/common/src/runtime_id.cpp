#include "jbench/common/runtime_id.h"

#include <sys/random.h>  // getentropy on macOS
#include <unistd.h>      // getentropy on glibc, FreeBSD and illumos

#include <algorithm>
#include <cerrno>

namespace jbench {

std::string runtime_id_hex(const std::array<std::uint8_t, 16>& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (std::uint8_t b : bytes) {
    hex.push_back(kHex[b >> 4]);
    hex.push_back(kHex[b & 0xf]);
  }
  return hex;
}

bool system_random_bytes(void* out, std::size_t size) {
  auto* p = static_cast<unsigned char*>(out);
  while (size > 0) {
    const std::size_t chunk = std::min<std::size_t>(size, 256);  // getentropy's limit per call
    if (getentropy(p, chunk) != 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += chunk;
    size -= chunk;
  }
  return true;
}

std::optional<std::string> make_runtime_id() {
  std::array<std::uint8_t, 16> bytes{};
  if (!system_random_bytes(bytes.data(), bytes.size())) return std::nullopt;
  return runtime_id_hex(bytes);
}

}  // namespace jbench
