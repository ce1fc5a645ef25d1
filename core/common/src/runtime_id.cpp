#include "jbench/common/runtime_id.h"

#include <sys/random.h>

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

std::optional<std::string> make_runtime_id() {
  std::array<std::uint8_t, 16> bytes{};
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = getrandom(bytes.data() + done, bytes.size() - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    done += static_cast<std::size_t>(n);
  }
  return runtime_id_hex(bytes);
}

}  // namespace jbench
