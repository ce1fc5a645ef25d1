#include "jbench/host_caps/dtrace.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "jbench/common/path_search.h"
#include "jbench/proc/run_tool.h"

namespace jbench::host_caps {
namespace {

constexpr int kVersionTimeoutMs = 10'000;

constexpr const char* kBuildIt =
    "on Linux, build DTrace for Linux from a dtrace-utils source tree: bash ci/dtrace-linux.sh "
    "SOURCE_DIR, then export JBENCH_DTRACE=/opt/dtrace-linux/bin/dtrace; on macOS, FreeBSD and "
    "illumos DTrace is part of the system (/usr/sbin/dtrace)";

std::optional<std::string> version_of(const std::string& path) {
  const proc::ToolRun run = proc::run_to_completion({path, "-V"}, std::nullopt, kVersionTimeoutMs);
  if (!run.started) return std::nullopt;
  return parse_dtrace_version(run.out + run.err);
}

}  // namespace

std::optional<std::string> parse_dtrace_version(std::string_view output) {
  static const std::regex kVersion(R"(dtrace: ([A-Za-z]+ D [0-9][0-9.]*))");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(output.begin(), output.end(), m, kVersion)) return std::nullopt;
  return m[1].str();
}

DtraceFound find_dtrace(const std::string& path_env,
                        const std::optional<std::string>& override_path) {
  DtraceFound found;
  if (override_path) {
    if (::access(override_path->c_str(), X_OK) != 0) {
      found.reason = fmt::format("JBENCH_DTRACE={} is not an executable file", *override_path);
      found.remediation = kBuildIt;
      return found;
    }
    const auto version = version_of(*override_path);
    if (!version) {
      found.reason = fmt::format("JBENCH_DTRACE={} does not say it is a DTrace (`{} -V`)",
                                 *override_path, *override_path);
      found.remediation = kBuildIt;
      return found;
    }
    return {*override_path, *version, "", ""};
  }
  std::istringstream dirs(path_env);
  std::string seen;
  std::set<std::filesystem::path> tried;  // /bin and /usr/bin are one directory on Debian
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = find_in_path("dtrace", dir, RelativePathEntries::resolve);
    std::error_code ec;
    if (candidate.empty() || !tried.insert(std::filesystem::canonical(candidate, ec)).second) {
      continue;
    }
    if (const auto version = version_of(candidate)) return {candidate, *version, "", ""};
    seen += (seen.empty() ? "" : ", ") + candidate;
  }
  found.reason = seen.empty()
                     ? fmt::format("no dtrace in PATH={} and JBENCH_DTRACE is unset", path_env)
                     : fmt::format(
                           "no DTrace: {} {} not a tracer (systemtap's USDT "
                           "generator answers to the same name)",
                           seen, seen.find(',') == std::string::npos ? "is" : "are");
  found.remediation = kBuildIt;
  return found;
}

DtraceFound find_dtrace() {
  const char* path = std::getenv("PATH");
  const char* override_path = std::getenv("JBENCH_DTRACE");
  return find_dtrace(path ? path : "", override_path && *override_path
                                           ? std::optional<std::string>(override_path)
                                           : std::nullopt);
}

}  // namespace jbench::host_caps
