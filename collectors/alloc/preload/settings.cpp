#include "settings.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "process_identity.h"

namespace jb_alloc {
namespace {

// Appends `text` to out (capacity len) and keeps it NUL-terminated, cutting what does not fit.
void append(char* out, std::size_t len, const char* text) {
  const std::size_t used = std::strlen(out);
  if (used + 1 >= len) return;
  std::size_t n = std::strlen(text);
  if (n > len - 1 - used) n = len - 1 - used;
  std::memcpy(out + used, text, n);
  out[used + n] = '\0';
}

// A decimal integer in [min, max], digits only. False for anything else, overflow included.
bool parse_decimal(const char* text, std::uint64_t min, std::uint64_t max, std::uint64_t& out) {
  if (!text || !*text) return false;
  std::uint64_t v = 0;
  for (const char* p = text; *p; ++p) {
    if (*p < '0' || *p > '9') return false;
    const auto digit = static_cast<std::uint64_t>(*p - '0');
    if (v > (UINT64_MAX - digit) / 10) return false;
    v = v * 10 + digit;
  }
  if (v < min || v > max) return false;
  out = v;
  return true;
}

void set_error(Settings& s, const char* variable, const char* value, const char* expected) {
  if (s.error[0]) return;  // the first problem is the one reported
  append(s.error, sizeof s.error, variable);
  append(s.error, sizeof s.error, "=\"");
  append(s.error, sizeof s.error, value);
  append(s.error, sizeof s.error, "\" is not ");
  append(s.error, sizeof s.error, expected);
}

// Copies an environment string into a fixed field; false if it does not fit.
bool copy_text(char* out, std::size_t len, const char* value) {
  const std::size_t n = std::strlen(value);
  if (n >= len) return false;
  std::memcpy(out, value, n + 1);
  return true;
}

}  // namespace

void read_settings(Settings& s) noexcept {
  s = Settings{};
  const char* out = std::getenv("JBENCH_ALLOC_OUT");
  if (!out || !*out) return;
  s.requested = true;
  // A relative path is made absolute now: the file is reopened by path at exit, after the
  // program may have changed directory.
  char cwd[2048] = {};
  if (out[0] != '/' && ::getcwd(cwd, sizeof cwd - 1)) {
    append(cwd, sizeof cwd, "/");
    copy_text(s.out_path, sizeof s.out_path, cwd);
  }
  const std::size_t prefix = std::strlen(s.out_path);
  if (!copy_text(s.out_path + prefix, sizeof s.out_path - 32 - prefix, out)) {
    // Room is kept for the ".<pid>" of a child's file. Without a usable path nothing can be
    // written at all, so this error leaves the library inert.
    s.requested = false;
    write_stderr(
        "jbench-alloc: JBENCH_ALLOC_OUT (made absolute) is longer than 4000 bytes; nothing is "
        "sampled\n");
    return;
  }

  if (const char* v = std::getenv("JBENCH_ALLOC_MEAN_BYTES"); v && *v) {
    if (!parse_decimal(v, 1, kMaxMeanBytes, s.mean_bytes)) {
      set_error(s, "JBENCH_ALLOC_MEAN_BYTES", v, "a whole number of bytes in 1..1099511627776");
    }
  }
  if (const char* v = std::getenv("JBENCH_ALLOC_SEED"); v && *v) {
    s.seed_given = parse_decimal(v, 0, UINT64_MAX, s.seed);
    if (!s.seed_given) set_error(s, "JBENCH_ALLOC_SEED", v, "a decimal 64-bit unsigned integer");
  }
  if (const char* v = std::getenv("JBENCH_ALLOC_BUFFER"); v && *v) {
    std::uint64_t n = 0;
    if (parse_decimal(v, 1, kMaxBufferSamples, n)) {
      s.buffer_samples = static_cast<std::uint32_t>(n);
    } else {
      set_error(s, "JBENCH_ALLOC_BUFFER", v, "a number of samples in 1..16777216");
    }
  }
  if (const char* v = std::getenv("JBENCH_RUN_ID"); v && !copy_text(s.run_id, sizeof s.run_id, v)) {
    set_error(s, "JBENCH_RUN_ID", "...", "at most 255 bytes long");
  }
  const char* boot = std::getenv("JBENCH_BOOT_ID");
  if (boot && *boot) {
    if (!copy_text(s.boot_id, sizeof s.boot_id, boot)) {
      set_error(s, "JBENCH_BOOT_ID", "...", "at most 63 bytes long");
    }
  } else if (!read_boot_id(s.boot_id, sizeof s.boot_id)) {
    s.boot_id[0] = '\0';  // the checker will report the header's boot id as wrong
  }
}

}  // namespace jb_alloc
