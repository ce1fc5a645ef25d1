// A bundle given as an archive (`jbench archive`): extracted safely into a private temporary
// directory (mode 0700 under $TMPDIR, else /tmp) that is removed, with everything in it, when the
// ArchiveInput dies — so a command reads the copy for as long as it needs and leaves nothing.
// `jbench validate ARCHIVE` and `jbench compare` open archives this way. Private to jbench::cli.
#pragma once

#include <string>
#include <vector>

#include "jbench/archive/archive.h"

namespace jbench::cli {

class ArchiveInput {
 public:
  explicit ArchiveInput(const std::string& archive_file);
  ~ArchiveInput();
  ArchiveInput(const ArchiveInput&) = delete;
  ArchiveInput& operator=(const ArchiveInput&) = delete;

  // The extracted bundle; empty when the archive could not be opened (`error`) or was refused
  // (`findings`: then nothing at all was extracted).
  const std::string& bundle_dir() const { return bundle_dir_; }
  const std::string& error() const { return error_; }
  const std::vector<archive::ArchiveFinding>& findings() const { return findings_; }

 private:
  std::string temp_dir_;
  std::string bundle_dir_;
  std::string error_;
  std::vector<archive::ArchiveFinding> findings_;
};

}  // namespace jbench::cli
