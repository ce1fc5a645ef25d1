#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "jb_events_lines.h"
#include "line_writer.h"
#include "process_identity.h"

namespace jb_alloc {
namespace {

// Builds a message from parts into a fixed buffer (cut if too long).
void compose(char* out, std::size_t len, const char* const* parts, std::size_t count) {
  std::size_t used = 0;
  for (std::size_t i = 0; i < count && used + 1 < len; ++i) {
    std::size_t n = std::strlen(parts[i]);
    if (n > len - 1 - used) n = len - 1 - used;
    std::memcpy(out + used, parts[i], n);
    used += n;
  }
  out[used] = '\0';
}

void format_u64(char (&out)[24], std::uint64_t v) {
  char digits[20];
  std::size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  std::size_t i = 0;
  while (n > 0) out[i++] = digits[--n];
  out[i] = '\0';
}

// "ENOENT" and the like; strerrorname_np allocates nothing (strerror may, for a locale).
const char* errno_name(int error) {
  const char* name = strerrorname_np(error);
  return name ? name : "an unknown error";
}

// The unsigned number after `key` in `text`; false if absent.
bool number_after(const char* text, const char* key, std::uint64_t& out) {
  const char* p = std::strstr(text, key);
  if (!p) return false;
  p += std::strlen(key);
  if (*p < '0' || *p > '9') return false;
  std::uint64_t v = 0;
  for (; *p >= '0' && *p <= '9'; ++p) v = v * 10 + static_cast<std::uint64_t>(*p - '0');
  out = v;
  return true;
}

// Whether `text` holds `"key":"value"` with value written as is. Values needing JSON escapes
// never match, which only makes such runs write no child files (refused, reported).
bool has_string(const char* text, const char* key, const char* value) {
  for (const char* v = value; *v; ++v) {
    if (*v == '"' || *v == '\\' || static_cast<unsigned char>(*v) < 0x20) return false;
  }
  char needle[512];
  const char* parts[] = {"\"", key, "\":\"", value, "\""};
  compose(needle, sizeof needle, parts, 5);
  return std::strstr(text, needle) != nullptr;
}

enum class Owner { me, same_run, foreign };

// Reads the header of an existing file to tell whose it is.
Owner owner_of(const char* path, const FileFacts& facts) {
  char head[4096];
  if (read_small_file(path, head, sizeof head) <= 0) return Owner::foreign;
  if (char* nl = std::strchr(head, '\n')) *nl = '\0';  // the header line only
  if (!std::strstr(head, "\"schema\":\"" JB_EVENTS_SCHEMA "\"") ||
      !std::strstr(head, "\"collector\":\"alloc\"")) {
    return Owner::foreign;
  }
  std::uint64_t pid = 0;
  std::uint64_t ticks = 0;
  if (number_after(head, ",\"pid\":", pid) &&
      number_after(head, "\"start_time_ticks\":\"", ticks) &&
      static_cast<std::int64_t>(pid) == facts.self.pid && ticks == facts.self.start_time_ticks) {
    return Owner::me;
  }
  if (has_string(head, "run_id", facts.settings->run_id) &&
      has_string(head, "boot_id", facts.settings->boot_id)) {
    return Owner::same_run;
  }
  return Owner::foreign;
}

// Writes the header into fd and records the file's identity; closes fd.
bool write_claim(int fd, const FileFacts& facts, OutputFile& out, char* why, std::size_t len) {
  LineWriter w(fd);
  write_header(w, facts);
  const bool written = w.flush();
  struct stat st {};
  const bool stated = written && ::fstat(fd, &st) == 0;
  const int error = written ? errno : w.error();  // before close() may change errno
  ::close(fd);
  if (!stated) {
    const char* parts[] = {"jbench-alloc: cannot write ", out.path, ": ", errno_name(error),
                           "; nothing is sampled\n"};
    compose(why, len, parts, 5);
    return false;
  }
  out.device = st.st_dev;
  out.inode = st.st_ino;
  return true;
}

// `base`, or `base.<pid>` when pid_suffix is given.
void set_path(OutputFile& out, const char* base, const char* pid_suffix) {
  const char* parts[] = {base, pid_suffix ? "." : "", pid_suffix ? pid_suffix : ""};
  compose(out.path, sizeof out.path, parts, 3);
}

}  // namespace

bool claim_output(const FileFacts& facts, OutputFile& out, char* why,
                  std::size_t why_len) noexcept {
  char pid[24];
  format_u64(pid, static_cast<std::uint64_t>(facts.self.pid));
  const bool fork_child = std::strcmp(facts.origin, "fork") == 0;
  set_path(out, facts.settings->out_path, fork_child ? pid : nullptr);
  for (int attempt = 0; attempt < 2; ++attempt) {
    int fd = ::open(out.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0644);
    if (fd >= 0) return write_claim(fd, facts, out, why, why_len);
    if (errno != EEXIST) {
      const char* parts[] = {"jbench-alloc: cannot create ", out.path, ": ", errno_name(errno),
                             "; nothing is sampled in pid ", pid,      "\n"};
      compose(why, why_len, parts, 7);
      return false;
    }
    switch (owner_of(out.path, facts)) {
      case Owner::me:
        fd = ::open(out.path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
        if (fd >= 0) return write_claim(fd, facts, out, why, why_len);
        break;
      case Owner::same_run:
        if (attempt == 0 && !fork_child) {
          set_path(out, facts.settings->out_path, pid);
          continue;
        }
        break;
      case Owner::foreign:
        break;
    }
    break;
  }
  const char* parts[] = {"jbench-alloc: ", out.path,
                         " already exists and is not this process's file (JBENCH_ALLOC_OUT must "
                         "name a file that does not exist); nothing is sampled in pid ",
                         pid, "\n"};
  compose(why, why_len, parts, 5);
  return false;
}

int reopen_output(const OutputFile& file, char* why, std::size_t why_len) noexcept {
  const int fd = ::open(file.path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
  struct stat st {};
  if (fd >= 0 && ::fstat(fd, &st) == 0 && st.st_dev == file.device && st.st_ino == file.inode) {
    return fd;
  }
  if (fd >= 0) ::close(fd);
  const char* parts[] = {"jbench-alloc: ", file.path,
                         " was removed or replaced before the process exited; its samples are "
                         "lost\n"};
  compose(why, why_len, parts, 3);
  return -1;
}

}  // namespace jb_alloc
