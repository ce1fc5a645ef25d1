// SHA-256 of files, and checking a bundle against its SHA256SUMS manifest.
//
//   Result<std::string> d = file_sha256("/usr/lib/x86_64-linux-gnu/libc.so.6");  // 64 hex chars
//
//   for (const auto& p : verify_sha256sums("out/nightly-42"))
//     std::cout << p.code << " " << p.path << ": " << p.detail << "\n";   // empty: all is well
//
// SHA256SUMS format (what `sha256sum -c` accepts when run inside the bundle directory): one line
// per regular file of the bundle except SHA256SUMS itself, "<64 lowercase hex>  <relative/path>\n",
// sorted by relative path in byte order. Paths never contain control characters or backslashes
// (sha256sum would escape them), nor "." or ".." components.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"

namespace jbench {

inline constexpr const char* kSha256SumsName = "SHA256SUMS";

// Streams the file in 64 KiB chunks (OpenSSL EVP). Follows symlinks like open(2) does.
Result<std::string> file_sha256(const std::string& path);

// The same over an open descriptor, read with pread from offset 0 to end of file (the
// descriptor's file offset is not used or moved). `label` names the file in error messages.
Result<std::string> fd_sha256(int fd, const std::string& label);

// One SHA256SUMS line for a digest and a path.
std::string sha256sums_line(std::string_view hex_digest, std::string_view relative_path);

struct SumsProblem {
  // Stable codes, for programs and tests to match:
  //   sums.bundle_unreadable  the bundle directory cannot be opened or walked
  //   sums.missing            there is no SHA256SUMS (or it is not a regular file)
  //   sums.unreadable         SHA256SUMS or a listed file cannot be read
  //   sums.malformed          a line is not "<64 lowercase hex>  <path>", or no final newline
  //   sums.unsafe_path        a listed path is absolute, has "."/".." or forbidden characters
  //   sums.duplicate          a path is listed more than once
  //   sums.unsorted           the lines are not in byte order of their paths
  //   sums.file_missing       listed, but not in the bundle
  //   sums.file_unlisted      a regular file in the bundle that SHA256SUMS does not list
  //   sums.not_regular        a symlink, fifo, socket or device in the bundle, or a listed path
  //                           that is a directory
  //   sums.mismatch           listed, present, and its digest differs
  std::string code;
  std::string path;    // relative to the bundle; "SHA256SUMS" for problems of the manifest itself
  std::string detail;  // for people: what was found, with the line number or both digests
};

// Every problem found, manifest problems first (in line order), then file problems in path
// order; empty when SHA256SUMS matches the bundle exactly. Never follows a symlink inside the
// bundle and never reads outside it, whatever SHA256SUMS says.
std::vector<SumsProblem> verify_sha256sums(const std::string& bundle_dir);

}  // namespace jbench
