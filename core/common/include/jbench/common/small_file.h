// Reading the small text files of /proc and /sys: to the end of the file, since procfs and
// sysfs report a size of 0, and at most `max_bytes` of it.
//
//   auto text = read_small_file("/proc/sys/kernel/perf_event_paranoid");
//   if (!text) say(text.error().message);   // "cannot open /proc/...: No such file or directory"
//   if (!text && text.error().sys_errno == ENOENT) ...   // absent, as opposed to unreadable
#pragma once

#include <cstddef>
#include <string>

#include "jbench/common/result.h"

namespace jbench {

// The file's text, or why not ("cannot open <path>: <strerror>", "cannot read <path>: ...") with
// its errno (a host error).
Result<std::string> read_small_file(const std::string& path, std::size_t max_bytes = 64 << 10);

// Its first line, without the newline.
Result<std::string> read_first_line(const std::string& path);

}  // namespace jbench
