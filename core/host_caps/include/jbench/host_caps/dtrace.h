// Where this host's DTrace is, for the DTrace backend and `jbench doctor` (one search, one
// answer). A DTrace is the tool named by $JBENCH_DTRACE, else the first `dtrace` on PATH that
// says it is one (`dtrace -V`: "dtrace: Oracle D 2.0", "dtrace: Sun D 1.13.1"). Debian's
// systemtap-sdt-dev also installs a /usr/bin/dtrace, a generator of USDT headers: never taken
// for a tracer.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace jbench::host_caps {

// The D version a `dtrace -V` output names ("Oracle D 2.0"), or nullopt when it names none.
std::optional<std::string> parse_dtrace_version(std::string_view output);

struct DtraceFound {
  std::string path;     // "" when none was found
  std::string version;  // "Oracle D 2.0"
  std::string reason;   // when none: why
  std::string remediation;
};

// `path_env`: the PATH to search; `override_path`: $JBENCH_DTRACE's value (nullopt: unset).
DtraceFound find_dtrace(const std::string& path_env,
                        const std::optional<std::string>& override_path);
// The same for this process (its PATH and $JBENCH_DTRACE).
DtraceFound find_dtrace();

}  // namespace jbench::host_caps
