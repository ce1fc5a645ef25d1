// The one rule for a plain file name that a setting asks jbench to create beside another file
// (the SQLite worker's plant_fsync_file, next to the run's database). The matrix decoder and the
// worker both check it, so a name the plan accepts is never refused at configure, and the other
// way round.
//
//   if (Status s = check_plain_file_name("a/b"); !s) error(s.error().message);  // "contains '/';
//   ..."
#pragma once

#include <cstddef>
#include <string_view>

#include "jbench/common/result.h"

namespace jbench {

inline constexpr std::size_t kMaxPlainFileNameBytes = 100;

// Whether `name` is a plain file name, and if not why (an input error): 1 to
// kMaxPlainFileNameBytes of A-Z a-z 0-9 . _ -, and neither "." nor "..". No '/', so it cannot
// leave the directory it is joined to; no spaces, quotes or control bytes, so it reads the same in
// every log and report.
Status check_plain_file_name(std::string_view name);

}  // namespace jbench
