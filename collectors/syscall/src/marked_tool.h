// What the bpftrace and D backends share: a tool running a generated program that prints the
// harness's marker calls back (program_lines.h). The harness makes marker calls — getpgid of a
// pid no process can have, which the program sees — and the drain thread, reading the tool's
// output into LiveView, says when a marker came back: the proof that the probes are live, and
// that the tool has read its buffers up to that point.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "backend.h"
#include "backend_process.h"
#include "program_lines.h"

namespace jbench::collectors::syscall_detail {

// getpgid(value): fails with ESRCH and does nothing; the program prints it back.
void marker_call(std::int64_t value);

// What one line of the program's output tells the run while it goes on (the drain thread's
// part): a marker or sync marker came back, a worker's canary, events the tool lost. A first
// call's line (process) is the backend's own business and changes nothing here.
void note_live_line(LiveView& live, const LiveLine& line);

// Repeats the phase-0 marker until the program prints it back; else why not, the tool stopped:
// it exited (`why_exited` gives its own words) or `deadline_ns` passed.
jbench::Status await_attach_marker(BackendProcess& process, LiveView& live,
                                   std::uint64_t deadline_ns, std::string_view tool,
                                   std::string_view stderr_name,
                                   const std::function<std::string()>& why_exited);

// Makes sync marker ++`syncs` and waits until the program printed it: false when `deadline_ns`
// passed or the tool ended first.
bool await_sync_marker(BackendProcess& process, LiveView& live, int& syncs,
                       std::uint64_t deadline_ns);

// Before the tool is interrupted (which may drop what it has not read): a sync marker read back
// proves it read the buffer the marker went to; a second, that the round of reads over every
// CPU's buffer is printed; then, the cohort gone, output that stays quiet for `quiet_ns` means
// nothing is left behind. True when it caught up (or had ended already, with all it printed).
bool catch_up_before_stop(BackendProcess& process, LiveView& live, int& syncs,
                          std::uint64_t deadline_ns, std::uint64_t quiet_ns);

}  // namespace jbench::collectors::syscall_detail
