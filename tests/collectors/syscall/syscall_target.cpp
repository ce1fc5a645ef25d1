// jbench-syscall-target: a deterministic program for the syscall collector's tests to observe.
//
//   jbench-syscall-target --dir DIR [--skip-canary]
//
// It writes one hello line on stdout, then blocks until told what to do. Commands arrive as
// SIGUSR1 carrying a value (sigqueue(3)): the high byte is the command, the low 24 bits its
// argument. Each command is acknowledged with one JSON line on stdout.
//
//   1 canary      faccessat(AT_FDCWD, "/jbench-canary/<runtime_id>", F_OK), raw, as a worker does
//                 (with --skip-canary: acknowledged without the call)
//   2 work N      N rounds of the op set below; the ack lists every call made and its errors
//   3 fork N      forks a child that does N rounds and exits; waits for it; the ack has its pid
//   4 burst N     N ioctl(FIONREAD) calls on one file, as fast as possible
//   5 exit        acknowledged, then exit 0
//   6 lock        opens DIR/flock.lock and takes flock(LOCK_EX) on it, waiting while another holds
//                 it
//   7 unlock      flock(LOCK_UN) on it and closes it
//   8 other N     N raw getppid calls: a system call no tracer follows as a call, only counts
//
// Why signals and vmsplice: the control channel must not make a single traced system call,
// so the counts a test reads from the trace are exactly the op set's. Commands are received
// with sigtimedwait (rt_sigtimedwait) and acknowledged with vmsplice into the stdout pipe;
// neither is a traced syscall. Without a command for 60 s the program exits with code 3.
// Exit codes: 0 after `exit`, 2 bad usage, 3 no command in time, 4 stdout unusable.
#include <fcntl.h>
#include <linux/openat2.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// The op set's calls, in the order of one round. Counts live in shared memory so a forked
// child's calls are reported by the parent without any traced call.
enum Call : int {
  kOpen,
  kOpenat,
  kOpenat2,
  kRead,
  kPread64,
  kReadv,
  kWrite,
  kPwrite64,
  kWritev,
  kFsync,
  kFdatasync,
  kFlock,
  kFcntl,
  kIoctl,
  kCallCount
};
constexpr std::array<const char*, kCallCount> kCallNames = {
    "open",     "openat", "openat2", "read",      "pread64", "readv", "write",
    "pwrite64", "writev", "fsync",   "fdatasync", "flock",   "fcntl", "ioctl"};

struct Tally {
  long calls[kCallCount];
  long errors[kCallCount];
};

Tally* g_tally = nullptr;  // MAP_SHARED: written by the parent and by forked children
std::string g_dir;

long note(Call c, long rc) {
  ++g_tally->calls[c];
  if (rc < 0) ++g_tally->errors[c];
  return rc;
}

// One round: every traced syscall at least once, with two known failures (ioctl TCGETS on a
// regular file: ENOTTY; openat of a missing file: ENOENT).
void one_round(int round) {
  const std::string path = g_dir + "/target-" + std::to_string(getpid()) + ".dat";
  const std::string missing = g_dir + "/missing-" + std::to_string(round);
  char buf[64];
  std::memset(buf, 'x', sizeof buf);
  iovec iov[2] = {{buf, 16}, {buf + 16, 16}};

  int fd = static_cast<int>(
      note(kOpen, syscall(SYS_open, path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600)));
  note(kWrite, write(fd, buf, sizeof buf));
  close(fd);
  fd = static_cast<int>(
      note(kOpenat, syscall(SYS_openat, AT_FDCWD, path.c_str(), O_RDWR | O_CLOEXEC)));
  note(kPwrite64, pwrite(fd, buf, sizeof buf, 64));
  note(kWritev, writev(fd, iov, 2));
  lseek(fd, 0, SEEK_SET);
  note(kRead, read(fd, buf, sizeof buf));
  note(kPread64, pread(fd, buf, sizeof buf, 0));
  note(kReadv, readv(fd, iov, 2));
  note(kFsync, fsync(fd));
  note(kFdatasync, fdatasync(fd));
  note(kFlock, flock(fd, LOCK_EX));
  note(kFlock, flock(fd, LOCK_UN));
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  note(kFcntl, fcntl(fd, F_SETLK, &lock));
  lock.l_type = F_UNLCK;
  note(kFcntl, fcntl(fd, F_SETLK, &lock));
  note(kFcntl, fcntl(fd, F_GETFD));
  termios tio{};
  note(kIoctl, ioctl(fd, TCGETS, &tio));
  int available = 0;
  note(kIoctl, ioctl(fd, FIONREAD, &available));
  note(kIoctl, ioctl(fd, FIOCLEX));
  close(fd);
  note(kOpenat, syscall(SYS_openat, AT_FDCWD, missing.c_str(), O_RDONLY | O_CLOEXEC));
  open_how how{};
  how.flags = O_RDONLY | O_CLOEXEC;
  fd = static_cast<int>(
      note(kOpenat2, syscall(SYS_openat2, AT_FDCWD, path.c_str(), &how, sizeof how)));
  if (fd >= 0) close(fd);
}

// Writes `text` into the stdout pipe without a write(2). vmsplice maps the pages into the pipe,
// so the buffer is never reused: each acknowledgement gets its own (a few per run).
void acknowledge(const std::string& text) {
  char* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (!copy) std::_Exit(4);
  std::memcpy(copy, text.c_str(), text.size() + 1);
  std::size_t done = 0;
  while (done < text.size()) {
    iovec v{copy + done, text.size() - done};
    const ssize_t n = vmsplice(STDOUT_FILENO, &v, 1, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) std::_Exit(4);
    done += static_cast<std::size_t>(n);
  }
}

std::string tally_json(const Tally& before) {
  std::string out = "{";
  for (int c = 0; c < kCallCount; ++c) {
    if (c) out += ",";
    out += std::string("\"") + kCallNames[static_cast<std::size_t>(c)] +
           "\":{\"calls\":" + std::to_string(g_tally->calls[c] - before.calls[c]) +
           ",\"errors\":" + std::to_string(g_tally->errors[c] - before.errors[c]) + "}";
  }
  return out + "}";
}

std::string make_runtime_id() {
  unsigned char bytes[16];
  if (getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) std::_Exit(4);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char b : bytes) {
    hex.push_back(kHex[b >> 4]);
    hex.push_back(kHex[b & 0xf]);
  }
  return hex;
}

int usage() {
  std::fputs("usage: jbench-syscall-target --dir DIR [--skip-canary]\n", stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  bool skip_canary = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--dir" && i + 1 < argc) {
      g_dir = argv[++i];
    } else if (arg == "--skip-canary") {
      skip_canary = true;
    } else {
      return usage();
    }
  }
  if (g_dir.empty()) return usage();
  void* shared =
      mmap(nullptr, sizeof(Tally), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) return 4;
  g_tally = static_cast<Tally*>(shared);
  std::memset(g_tally, 0, sizeof(Tally));

  sigset_t commands;
  sigemptyset(&commands);
  sigaddset(&commands, SIGUSR1);
  sigprocmask(SIG_BLOCK, &commands, nullptr);  // before hello, so no command can be lost

  const std::string runtime_id = make_runtime_id();
  const std::string hello = "{\"hello\":1,\"pid\":" + std::to_string(getpid()) +
                            ",\"runtime_id\":\"" + runtime_id + "\"}\n";
  if (write(STDOUT_FILENO, hello.data(), hello.size()) != static_cast<ssize_t>(hello.size())) {
    return 4;
  }
  int lock_fd = -1;  // commands 6 and 7
  for (;;) {
    siginfo_t info{};
    const timespec limit{60, 0};
    if (sigtimedwait(&commands, &info, &limit) < 0) {
      if (errno == EINTR) continue;
      return 3;
    }
    const unsigned value = static_cast<unsigned>(info.si_value.sival_int);
    const unsigned command = value >> 24;
    const int argument = static_cast<int>(value & 0xffffffu);
    const Tally before = *g_tally;
    switch (command) {
      case 1: {
        const std::string path = "/jbench-canary/" + runtime_id;
        int error = 0;
        if (!skip_canary && syscall(SYS_faccessat, AT_FDCWD, path.c_str(), F_OK) != 0) {
          error = errno;
        }
        acknowledge(
            "{\"ack\":\"canary\",\"skipped\":" + std::string(skip_canary ? "true" : "false") +
            ",\"errno\":" + std::to_string(error) + "}\n");
        break;
      }
      case 2:
        for (int r = 0; r < argument; ++r) one_round(r);
        acknowledge("{\"ack\":\"work\",\"did\":" + tally_json(before) + "}\n");
        break;
      case 3: {
        const pid_t child = fork();
        if (child == 0) {
          for (int r = 0; r < argument; ++r) one_round(r);
          _exit(0);
        }
        int status = 0;
        if (child > 0) waitpid(child, &status, 0);
        acknowledge("{\"ack\":\"fork\",\"child\":" + std::to_string(child) +
                    ",\"did\":" + tally_json(before) + "}\n");
        break;
      }
      case 4: {
        const std::string path = g_dir + "/burst-" + std::to_string(getpid()) + ".dat";
        const int fd = static_cast<int>(note(kOpenat, syscall(SYS_openat, AT_FDCWD, path.c_str(),
                                                              O_RDWR | O_CREAT | O_CLOEXEC, 0600)));
        int available = 0;
        for (int i = 0; i < argument; ++i) note(kIoctl, ioctl(fd, FIONREAD, &available));
        if (fd >= 0) close(fd);
        acknowledge("{\"ack\":\"burst\",\"did\":" + tally_json(before) + "}\n");
        break;
      }
      case 5:
        acknowledge("{\"ack\":\"exit\"}\n");
        return 0;
      case 6: {
        const std::string path = g_dir + "/flock.lock";
        lock_fd = static_cast<int>(note(kOpenat, syscall(SYS_openat, AT_FDCWD, path.c_str(),
                                                         O_RDWR | O_CREAT | O_CLOEXEC, 0600)));
        note(kFlock, flock(lock_fd, LOCK_EX));
        acknowledge("{\"ack\":\"lock\",\"did\":" + tally_json(before) + "}\n");
        break;
      }
      case 7:
        note(kFlock, flock(lock_fd, LOCK_UN));
        if (lock_fd >= 0) close(lock_fd);
        lock_fd = -1;
        acknowledge("{\"ack\":\"unlock\",\"did\":" + tally_json(before) + "}\n");
        break;
      case 8:
        for (int i = 0; i < argument; ++i) syscall(SYS_getppid);
        acknowledge("{\"ack\":\"other\",\"getppid\":" + std::to_string(argument) + "}\n");
        break;
      default:
        acknowledge("{\"ack\":\"unknown\"}\n");
        break;
    }
  }
}
