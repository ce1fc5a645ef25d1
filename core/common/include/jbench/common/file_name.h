// The one rule for a plain file name that a setting asks jbench to create beside another file
// (the SQLite worker's plant_fsync_file, next to the run's database). The matrix decoder and the
// worker both check it, so a name the plan accepts is never refused at configure, and the other
// way round.
//
//   if (auto why = plain_file_name_problem("a/b")) error(*why);  // "contains '/'; ..."
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace jbench {

inline constexpr std::size_t kMaxPlainFileNameBytes = 100;

// Why `name` is not a plain file name, or nullopt if it is one: 1 to kMaxPlainFileNameBytes of
// A-Z a-z 0-9 . _ -, and neither "." nor "..". No '/', so it cannot leave the directory it is
// joined to; no spaces, quotes or control bytes, so it reads the same in every log and report.
std::optional<std::string> plain_file_name_problem(std::string_view name);

}  // namespace jbench
