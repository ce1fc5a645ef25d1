// Writing a result bundle so that what lands under its final name is complete and checkable.
//
//   auto staged = StagingBundle::create("out", "nightly-42");   // out/.staging-nightly-42-...
//   if (!staged) return fail(staged.error().message);
//   StagingBundle& b = *staged;
//   Status s = b.write_json("manifest.json", manifest);          // keep going on failure, and
//   ...                                                           // finalize as invalid
//   Result<std::string> final_dir = b.finalize(Outcome::complete);   // "out/nightly-42"
//
// Guarantees:
//  - Nothing appears under the bundle's final name until finalize() succeeds, and then all of it
//    appears at once: the staging directory is renamed into place in one rename(2).
//  - An existing bundle is never overwritten or merged into: create() refuses a name whose
//    complete, .interrupted or .invalid form exists, and finalize() renames with
//    renameat2(RENAME_NOREPLACE) (or, where the system or file system lacks it, over an empty
//    directory it has just created itself, which rename(2) cannot replace if anything appeared in
//    it).
//  - SHA256SUMS is written last, after every other file, covering every regular file; it and
//    every directory are fsynced before the rename, and the parent directory after it.
//  - Each write_file/write_json lands whole or not at all (temporary name, fsync, rename); a
//    failed write removes its temporary file and leaves the bundle usable, so a run that hits
//    ENOSPC or EIO can still be finalized as `invalid` with what was written.
//  - Writes never leave the staging directory: absolute paths, "." and ".." are refused, and a
//    symlink planted where a directory is expected is not followed. finalize() refuses a tree
//    with anything but regular files and directories.
//  - No exceptions: every failure is a value naming the file and the errno.
//  - If the object dies without finalize(), the staging directory is left where it is, as
//    evidence; its name starts with ".staging-" so it is never mistaken for a bundle.
//
// Threads: write_file, write_json and append_line may run concurrently on different paths;
// finalize() must not run concurrently with any of them.
#pragma once

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "jbench/common/result.h"

namespace jbench {

enum class Outcome { complete, interrupted, invalid };

// "" for complete, ".interrupted", ".invalid": appended to the bundle name by finalize().
std::string_view outcome_suffix(Outcome outcome);

class StagingBundle {
 public:
  // Makes `out_dir` (like mkdir -p) and out_dir/.staging-<name>-<pid>-<random>. `name` is one
  // path component (no '/', not "." or "..", no control characters or backslashes).
  static Result<StagingBundle> create(const std::string& out_dir, const std::string& name);

  StagingBundle(StagingBundle&&) noexcept;
  StagingBundle& operator=(StagingBundle&&) noexcept;
  StagingBundle(const StagingBundle&) = delete;
  StagingBundle& operator=(const StagingBundle&) = delete;
  ~StagingBundle();

  // The staging directory (after a successful finalize(): the final directory).
  const std::string& root() const { return root_; }
  const std::string& out_dir() const { return out_dir_; }
  const std::string& name() const { return name_; }
  bool finalized() const { return finalized_; }

  // Writes `bytes` to root()/relative, creating parent directories, atomically replacing any
  // earlier file of that name; fsyncs the file. "SHA256SUMS" at the top is reserved.
  Status write_file(std::string_view relative, std::string_view bytes);

  // How a document is laid out: indented for a person (the bundle's own documents), or on one
  // line (a run's documents, many and alike: a third of the bytes; `jq .` shows them indented).
  enum class Layout { indented, compact };
  // write_file of the document plus a final newline. Invalid UTF-8 in a string is an error.
  Status write_json(std::string_view relative, const nlohmann::json& doc,
                    Layout layout = Layout::indented);

  // write_file of the bytes of the regular file `source` (not followed if it is a symlink),
  // streamed: a raw event file or a stored binary never has to fit in memory.
  Status copy_file(std::string_view relative, const std::string& source);

  // `relative` as a hard link to the regular file `source` (never a symlink), for a file of
  // another finished bundle, which is never written again: no bytes are copied and no space is
  // taken. Where `source` is on another file system, or the file system has no hard links, a
  // copy_file instead. Anyone who edits either name edits both: SHA256SUMS then tells.
  Status link_file(std::string_view relative, const std::string& source);

  // copy_file (or with TreeCopy::link, link_file) of every regular file below `source_dir` to
  // relative_dir/<its path>, never following a symlink; a symlink, fifo or device below it is
  // refused and nothing more copied.
  enum class TreeCopy { copy, link };
  Status copy_tree(std::string_view relative_dir, const std::string& source_dir,
                   TreeCopy how = TreeCopy::copy);

  // Appends line + "\n" with one O_APPEND write (no fsync: finalize() syncs). For logs.
  Status append_line(std::string_view relative, std::string_view line);

  // Writes SHA256SUMS, syncs, and renames the staging directory to out_dir/<name><suffix>.
  // Returns the final path. On failure the staging directory stays in place without a
  // SHA256SUMS, and finalize() may be called again.
  Result<std::string> finalize(Outcome outcome);

 private:
  StagingBundle() = default;
  Status write_at(std::string_view relative, std::string_view bytes, bool allow_reserved);
  // The one atomic write: a temporary file that `fill` writes (returning 0 or an errno), fsynced
  // and renamed into place.
  Status write_with(std::string_view relative, bool allow_reserved,
                    const std::function<int(int)>& fill);
  void close_fds();

  std::string out_dir_;
  std::string name_;
  std::string staging_name_;  // the staging directory's name inside out_dir_
  std::string root_;
  int out_fd_ = -1;   // out_dir_, held open so the final rename happens where create() looked
  int root_fd_ = -1;  // the staging directory
  bool finalized_ = false;
};

}  // namespace jbench
