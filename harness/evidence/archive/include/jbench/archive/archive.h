// A bundle as one file, and that file back as a bundle, safely. The archive is how a bundle
// travels; `jbench validate ARCHIVE` checks the copy without trusting the file it came in.
//
//   Result<ArchiveInfo> made = create_archive("bundles/nightly-42", "/tmp/nightly-42.tar.zst");
//   if (!made) log(made.error().message);        // refused or failed: no file at out_file
//
//   Result<Extraction> x = extract_archive_safely("/tmp/nightly-42.tar.zst", private_dir);
//   if (!x) ...                                   // not an archive, or dest_dir unwritable: exit 2
//   else if (!x->findings.empty()) ...            // refused: nothing was written at all
//   else validate_bundle(x->bundle_dir);          // private_dir/nightly-42
//
// Codes (archive.absolute_path, archive.path_traversal, ...) are stable and listed in
// docs/archive.md; programs and tests match codes, never messages.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jbench/common/result.h"

namespace jbench::archive {

struct ArchiveInfo {
  std::string compression;  // "zstd", or "gzip" when this libarchive cannot write zstd
  std::uint64_t entries = 0;
  std::uint64_t data_bytes = 0;  // sum of the regular files' sizes, before compression
};

// Writes `bundle_dir` as a pax tar (zstd, else gzip) under one top directory named like the
// bundle, entries in byte-wise sorted path order, uid/gid 0, no user or group names, modes
// normalised to 0755/0644, mtimes in whole seconds from the files. Refuses (error, nothing
// written) when the bundle holds anything but regular files and directories, when out_file
// already exists, or when out_file would land inside the bundle. Writes a temporary file beside
// out_file and renames it without replacing anything; on failure the temporary is removed.
Result<ArchiveInfo> create_archive(const std::string& bundle_dir, const std::string& out_file);

struct ExtractLimits {
  std::uint64_t max_entry_bytes = std::uint64_t{1} << 30;  // 1 GiB per regular file
  std::uint64_t max_total_bytes = std::uint64_t{8} << 30;  // 8 GiB over all files
  std::uint64_t max_entries = 100'000;
};

// One refused entry. `entry` is the entry's name exactly as the archive spells it ("" when the
// finding is about the archive as a whole).
struct ArchiveFinding {
  std::string code;
  std::string entry;
  std::string message;
};

struct Extraction {
  std::vector<ArchiveFinding> findings;  // non-empty: refused, and nothing was written
  std::string top_dir;                   // the archive's one top-level directory name
  std::string bundle_dir;                // dest_dir/top_dir, when findings is empty
};

// Reads the archive twice: first every header and all data are checked (path, type, size,
// count, duplicates, one top directory, integrity) without writing anything; only an archive
// with no finding at all is then extracted into dest_dir, each entry checked again and created
// by walking down from dest_dir one component at a time with O_NOFOLLOW and creating files with
// O_EXCL, so nothing can be written outside dest_dir even if a check above were wrong.
// dest_dir must exist and should be empty and private. The error side is for a file that is not
// a tar archive (zstd, gzip or uncompressed), or a system call that failed; findings are for an
// archive that was read and refused.
Result<Extraction> extract_archive_safely(const std::string& archive_file,
                                          const std::string& dest_dir,
                                          const ExtractLimits& limits = {});

}  // namespace jbench::archive
