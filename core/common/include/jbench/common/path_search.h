// Where a command named without a slash would be found: the first executable regular file of
// that name in a colon-separated PATH. The one search both the collectors (which start tools)
// and `jbench doctor` (which reports on them) use.
//
//   std::string bpftrace = find_on_path("bpftrace");   // "/usr/bin/bpftrace", or "" if none
#pragma once

#include <string>
#include <string_view>

namespace jbench {

// What a relative PATH entry (an empty one is ".") means: the collectors do not trust them and
// skip them; the doctor reports what execvp would find and resolves them against the cwd.
enum class RelativePathEntries { skip, resolve };

// The first executable regular file `tool` in `path_env`, as an absolute path; "" if none.
std::string find_in_path(std::string_view tool, std::string_view path_env,
                         RelativePathEntries relative);

// find_in_path over $PATH, relative entries skipped. Without PATH in the environment,
// "/usr/local/bin:/usr/bin:/bin" is searched.
std::string find_on_path(std::string_view tool);

// This process's executable (readlink of /proc/self/exe), absolute; "" when it cannot be read.
// What jbench and its helpers run beside it (workers, adapters) is found from here.
std::string self_executable();

// `file` in the folder of self_executable(); `file` as given when that cannot be read.
std::string beside_self_executable(std::string_view file);

}  // namespace jbench
