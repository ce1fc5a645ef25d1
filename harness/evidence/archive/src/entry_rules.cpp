#include "entry_rules.h"

#include <fmt/format.h>

namespace jbench::archive {
namespace {

ArchiveFinding finding(std::string code, const std::string& entry, std::string message) {
  return ArchiveFinding{std::move(code), entry, std::move(message)};
}

std::string join(const CleanPath& path, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    if (i) out += '/';
    out += path[i];
  }
  return out;
}

}  // namespace

std::optional<ArchiveFinding> EntryRules::check(const EntryHeader& header, CleanPath* path) {
  if (++entries_ > limits_.max_entries) {
    stop_ = true;
    return finding(
        "archive.too_many_entries", header.name,
        fmt::format("more than {} entries; a bundle never has that many", limits_.max_entries));
  }
  CleanPath clean;
  if (auto f = check_name(header.name, &clean)) return f;
  switch (header.kind) {
    case EntryHeader::Kind::regular:
    case EntryHeader::Kind::directory:
      break;
    case EntryHeader::Kind::symlink:
      return finding("archive.symlink", header.name,
                     "a symbolic link; a bundle holds only regular files and directories");
    case EntryHeader::Kind::hardlink:
      return finding("archive.hardlink", header.name,
                     "a hard link; a bundle holds only regular files and directories");
    case EntryHeader::Kind::special:
      return finding("archive.special_file", header.name,
                     "a device, fifo or socket; a bundle holds only regular files and "
                     "directories");
  }
  if (auto f = check_size(header)) return f;
  if (auto f = check_place(header, clean)) return f;
  *path = std::move(clean);
  return std::nullopt;
}

std::optional<ArchiveFinding> EntryRules::check_name(const std::string& name,
                                                     CleanPath* path) const {
  if (name.empty()) return finding("archive.bad_name", name, "an entry with an empty name");
  if (name.find('\0') != std::string::npos) {
    return finding("archive.bad_name", name, "an entry name with a NUL byte");
  }
  // Checked on the name as spelled, before any cleaning: "/x" and "a/../../x" are refused, not
  // rewritten into something harmless, because an archive that tries them is not a bundle.
  if (name.front() == '/') {
    return finding("archive.absolute_path", name,
                   "an absolute path: it names a place outside "
                   "the destination");
  }
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t end = std::min(name.find('/', start), name.size());
    const std::string part = name.substr(start, end - start);
    if (part == "..") {
      return finding("archive.path_traversal", name,
                     "a '..' component: it could name a place outside the destination");
    }
    if (!part.empty() && part != ".") path->push_back(part);
    start = end + 1;
  }
  if (path->empty()) return finding("archive.bad_name", name, "the name names no file");
  return std::nullopt;
}

std::optional<ArchiveFinding> EntryRules::check_size(const EntryHeader& header) {
  if (header.kind != EntryHeader::Kind::regular) return std::nullopt;
  if (header.size < 0) {
    return finding("archive.corrupt", header.name, "a negative size in the entry's header");
  }
  const auto size = static_cast<std::uint64_t>(header.size);
  if (size > limits_.max_entry_bytes) {
    stop_ = true;
    return finding("archive.too_large", header.name,
                   fmt::format("declares {} bytes, over the limit of {} bytes per file", size,
                               limits_.max_entry_bytes));
  }
  total_bytes_ += size;
  if (total_bytes_ > limits_.max_total_bytes) {
    stop_ = true;
    return finding("archive.too_large", header.name,
                   fmt::format("the files up to this one total {} bytes, over the limit of {} "
                               "bytes for the archive",
                               total_bytes_, limits_.max_total_bytes));
  }
  return std::nullopt;
}

std::optional<ArchiveFinding> EntryRules::check_place(const EntryHeader& header,
                                                      const CleanPath& path) {
  const bool is_dir = header.kind == EntryHeader::Kind::directory;
  if (top_.empty()) top_ = path.front();
  if (path.front() != top_) {
    return finding("archive.not_one_directory", header.name,
                   fmt::format("outside the archive's top directory '{}'; a bundle archive "
                               "holds exactly one directory",
                               top_));
  }
  if (path.size() == 1 && !is_dir) {
    return finding("archive.not_one_directory", header.name,
                   "a file at the top level; a bundle archive holds exactly one directory");
  }
  // A file may not stand where a directory is used, nor the other way round: writing either
  // would need to replace what an earlier entry made.
  for (std::size_t i = 1; i < path.size(); ++i) {
    const std::string parent = join(path, i);
    auto it = seen_.find(parent);
    if (it != seen_.end() && it->second == Seen::file) {
      return finding("archive.path_conflict", header.name,
                     fmt::format("'{}' is a file in this archive, not a directory", parent));
    }
    if (it == seen_.end()) seen_.emplace(parent, Seen::implied_directory);
  }
  const std::string self = join(path, path.size());
  auto it = seen_.find(self);
  if (it == seen_.end()) {
    seen_.emplace(self, is_dir ? Seen::directory : Seen::file);
    return std::nullopt;
  }
  if (it->second == Seen::implied_directory && is_dir) {
    it->second = Seen::directory;
    return std::nullopt;
  }
  if (it->second == Seen::implied_directory) {
    return finding("archive.path_conflict", header.name,
                   "a file where earlier entries put a directory");
  }
  return finding(
      "archive.duplicate_entry", header.name,
      fmt::format("'{}' appears more than once; which one is the bundle's is unknown", self));
}

std::optional<ArchiveFinding> EntryRules::finish() const {
  if (entries_ == 0) {
    return finding("archive.not_one_directory", "", "the archive has no entries");
  }
  return std::nullopt;
}

}  // namespace jbench::archive
