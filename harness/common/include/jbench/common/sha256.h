// SHA-256 of bytes in memory, as 64 lowercase hex characters.
#pragma once

#include <string>
#include <string_view>

namespace jbench {

std::string sha256_hex(std::string_view bytes);

}  // namespace jbench
