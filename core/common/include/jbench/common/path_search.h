// Where a command named without a slash would be found: the first executable regular file of
// that name in $PATH's absolute directories (relative entries are not trusted and are skipped).
//
//   std::string bpftrace = find_on_path("bpftrace");   // "/usr/bin/bpftrace", or "" if none
#pragma once

#include <string>
#include <string_view>

namespace jbench {

// Without PATH in the environment, "/usr/local/bin:/usr/bin:/bin" is searched.
std::string find_on_path(std::string_view tool);

}  // namespace jbench
