// The rules every archive entry must pass before anything is written: a pure function of the
// headers seen so far, so the scan pass and the write pass apply exactly the same checks.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "jbench/archive/archive.h"

namespace jbench::archive {

// What a header says, independent of libarchive.
struct EntryHeader {
  std::string name;  // as the archive spells it
  enum class Kind { regular, directory, symlink, hardlink, special } kind = Kind::regular;
  std::int64_t size = 0;  // declared data size; only meaningful for regular files
};

// The entry's path split into components, "." and empty ones dropped. Only set when the
// entry was accepted.
using CleanPath = std::vector<std::string>;

class EntryRules {
 public:
  explicit EntryRules(const ExtractLimits& limits) : limits_(limits) {}

  // Checks one more entry. Returns the finding that refuses it, or nullopt with *path set.
  std::optional<ArchiveFinding> check(const EntryHeader& header, CleanPath* path);

  // After the last header: an archive with no entry has no bundle in it.
  std::optional<ArchiveFinding> finish() const;

  // A finding after which reading on is pointless or costly (too many entries, too large).
  bool must_stop() const { return stop_; }
  const std::string& top_dir() const { return top_; }

 private:
  enum class Seen { implied_directory, directory, file };
  std::optional<ArchiveFinding> check_name(const std::string& name, CleanPath* path) const;
  std::optional<ArchiveFinding> check_size(const EntryHeader& header);
  std::optional<ArchiveFinding> check_place(const EntryHeader& header, const CleanPath& path);

  ExtractLimits limits_;
  std::uint64_t entries_ = 0;
  std::uint64_t total_bytes_ = 0;
  bool stop_ = false;
  std::string top_;
  std::map<std::string, Seen> seen_;  // joined clean path -> what is there
};

}  // namespace jbench::archive
