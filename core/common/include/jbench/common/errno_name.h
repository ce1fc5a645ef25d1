// The symbolic name of an errno value ("ENOENT"): glibc's strerrorname_np on Linux, which names
// every Linux errno; elsewhere the POSIX names (posix::errno_name, built and tested everywhere).
#pragma once

namespace jbench {

// "ENOENT" for ENOENT; nullptr for a value the system does not name.
const char* errno_name(int error);

namespace posix {
const char* errno_name(int error);  // the errno names POSIX defines
}  // namespace posix

}  // namespace jbench
