// SHA-256 of bytes in memory, as 64 lowercase hex characters.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace jbench {

std::string sha256_hex(std::string_view bytes);

// Bytes as lowercase hex, two characters each: how every digest is written.
std::string lower_hex(const unsigned char* bytes, std::size_t length);

}  // namespace jbench
