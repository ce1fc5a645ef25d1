// A process incarnation's runtime id: 128 bits as 32 lowercase hex characters, what a worker
// announces in its hello (docs/worker-protocol.md) and jbench::proc::check_worker_hello checks.
//
//   std::optional<std::string> id = make_runtime_id();   // "3f0c...", 32 characters
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace jbench {

// Fills `out` with `size` bytes from the system's entropy source (getentropy, which Linux,
// macOS, FreeBSD and illumos all have); false if it fails.
bool system_random_bytes(void* out, std::size_t size);

// 128 bits from system_random_bytes; nullopt if it fails.
std::optional<std::string> make_runtime_id();

// 16 bytes as 32 lowercase hex characters.
std::string runtime_id_hex(const std::array<std::uint8_t, 16>& bytes);

}  // namespace jbench
