// A process incarnation's runtime id: 128 bits as 32 lowercase hex characters, what a worker
// announces in its hello (docs/worker-protocol.md) and jbench::proc::check_worker_hello checks.
//
//   std::optional<std::string> id = make_runtime_id();   // "3f0c...", 32 characters
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace jbench {

// 128 bits from getrandom(2); nullopt if it fails (it blocks only until the kernel's pool is
// initialised).
std::optional<std::string> make_runtime_id();

// 16 bytes as 32 lowercase hex characters.
std::string runtime_id_hex(const std::array<std::uint8_t, 16>& bytes);

}  // namespace jbench
