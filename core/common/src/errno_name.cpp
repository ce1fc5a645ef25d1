#include "jbench/common/errno_name.h"

#include <string.h>  // strerrorname_np (glibc >= 2.32)

#include <cerrno>

#include "jbench/common/platform_choice.h"

namespace jbench {

namespace posix {
namespace {

struct Named {
  int value;
  const char* name;
};
// Where two names share a value (EAGAIN and EWOULDBLOCK, ENOTSUP and EOPNOTSUPP on Linux), the
// first listed is the answer, as glibc's.
constexpr Named kNames[] = {
    {E2BIG, "E2BIG"},
    {EACCES, "EACCES"},
    {EADDRINUSE, "EADDRINUSE"},
    {EADDRNOTAVAIL, "EADDRNOTAVAIL"},
    {EAFNOSUPPORT, "EAFNOSUPPORT"},
    {EAGAIN, "EAGAIN"},
    {EALREADY, "EALREADY"},
    {EBADF, "EBADF"},
    {EBADMSG, "EBADMSG"},
    {EBUSY, "EBUSY"},
    {ECANCELED, "ECANCELED"},
    {ECHILD, "ECHILD"},
    {ECONNABORTED, "ECONNABORTED"},
    {ECONNREFUSED, "ECONNREFUSED"},
    {ECONNRESET, "ECONNRESET"},
    {EDEADLK, "EDEADLK"},
    {EDESTADDRREQ, "EDESTADDRREQ"},
    {EDOM, "EDOM"},
    {EDQUOT, "EDQUOT"},
    {EEXIST, "EEXIST"},
    {EFAULT, "EFAULT"},
    {EFBIG, "EFBIG"},
    {EHOSTUNREACH, "EHOSTUNREACH"},
    {EIDRM, "EIDRM"},
    {EILSEQ, "EILSEQ"},
    {EINPROGRESS, "EINPROGRESS"},
    {EINTR, "EINTR"},
    {EINVAL, "EINVAL"},
    {EIO, "EIO"},
    {EISCONN, "EISCONN"},
    {EISDIR, "EISDIR"},
    {ELOOP, "ELOOP"},
    {EMFILE, "EMFILE"},
    {EMLINK, "EMLINK"},
    {EMSGSIZE, "EMSGSIZE"},
    {EMULTIHOP, "EMULTIHOP"},
    {ENAMETOOLONG, "ENAMETOOLONG"},
    {ENETDOWN, "ENETDOWN"},
    {ENETRESET, "ENETRESET"},
    {ENETUNREACH, "ENETUNREACH"},
    {ENFILE, "ENFILE"},
    {ENOBUFS, "ENOBUFS"},
    {ENODEV, "ENODEV"},
    {ENOENT, "ENOENT"},
    {ENOEXEC, "ENOEXEC"},
    {ENOLCK, "ENOLCK"},
    {ENOLINK, "ENOLINK"},
    {ENOMEM, "ENOMEM"},
    {ENOMSG, "ENOMSG"},
    {ENOPROTOOPT, "ENOPROTOOPT"},
    {ENOSPC, "ENOSPC"},
    {ENOSYS, "ENOSYS"},
    {ENOTCONN, "ENOTCONN"},
    {ENOTDIR, "ENOTDIR"},
    {ENOTEMPTY, "ENOTEMPTY"},
    {ENOTRECOVERABLE, "ENOTRECOVERABLE"},
    {ENOTSOCK, "ENOTSOCK"},
    {ENOTTY, "ENOTTY"},
    {ENXIO, "ENXIO"},
    {EOPNOTSUPP, "EOPNOTSUPP"},
    {ENOTSUP, "ENOTSUP"},
    {EOVERFLOW, "EOVERFLOW"},
    {EOWNERDEAD, "EOWNERDEAD"},
    {EPERM, "EPERM"},
    {EPIPE, "EPIPE"},
    {EPROTO, "EPROTO"},
    {EPROTONOSUPPORT, "EPROTONOSUPPORT"},
    {EPROTOTYPE, "EPROTOTYPE"},
    {ERANGE, "ERANGE"},
    {EROFS, "EROFS"},
    {ESPIPE, "ESPIPE"},
    {ESRCH, "ESRCH"},
    {ESTALE, "ESTALE"},
    {ETIMEDOUT, "ETIMEDOUT"},
    {ETXTBSY, "ETXTBSY"},
    {EWOULDBLOCK, "EWOULDBLOCK"},
    {EXDEV, "EXDEV"},
};

}  // namespace

const char* errno_name(int error) {
  for (const Named& n : kNames) {
    if (n.value == error) return n.name;
  }
  return nullptr;
}
}  // namespace posix

const char* errno_name(int error) {
#if JBENCH_PLATFORM_LINUX
  return strerrorname_np(error);
#else
  return posix::errno_name(error);
#endif
}

}  // namespace jbench
