// verify_sha256sums: checks a bundle against its SHA256SUMS, reporting every problem found.
#include "jbench/bundle/sha256sums.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <set>

#include "fs_util.h"

namespace jbench {
namespace {

using bundle_detail::UniqueFd;

bool is_lower_hex_digest(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// A printable rendering of an untrusted line for a message.
std::string printable(std::string_view s) {
  std::string out;
  for (const char ch : s.substr(0, 120)) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f || c == '\\') {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += ch;
    }
  }
  if (s.size() > 120) out += "...";
  return out;
}

Result<std::string> read_all(int fd, const std::string& label) {
  std::string text;
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return bundle_detail::errno_error("cannot read {}", label);
    }
    if (n == 0) return text;
    text.append(buf, static_cast<std::size_t>(n));
  }
}

struct Listing {
  std::map<std::string, std::string> digests;  // path -> expected digest (first listing wins)
};

Listing parse_sums(const std::string& text, std::vector<SumsProblem>& problems) {
  Listing listing;
  std::string previous;
  std::size_t start = 0;
  std::size_t line_no = 0;
  while (start < text.size()) {
    ++line_no;
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      problems.push_back({"sums.malformed", kSha256SumsName,
                          fmt::format("line {}: no newline at the end of the file", line_no)});
      end = text.size();
    }
    const std::string_view line(text.data() + start, end - start);
    start = end + 1;
    if (line.size() < 67 || !is_lower_hex_digest(line.substr(0, 64)) ||
        line.substr(64, 2) != "  ") {
      problems.push_back({"sums.malformed", kSha256SumsName,
                          fmt::format("line {}: expected '<64 lowercase hex>  <path>', found '{}'",
                                      line_no, printable(line))});
      continue;
    }
    const std::string path(line.substr(66));
    if (const Status safe = bundle_detail::check_bundle_path(path); !safe) {
      problems.push_back({"sums.unsafe_path", printable(path),
                          fmt::format("line {}: {}", line_no, safe.error().message)});
      continue;
    }
    if (path == kSha256SumsName) {
      problems.push_back({"sums.malformed", kSha256SumsName,
                          fmt::format("line {}: SHA256SUMS lists itself", line_no)});
      continue;
    }
    if (listing.digests.count(path) != 0) {
      problems.push_back(
          {"sums.duplicate", path, fmt::format("line {}: listed more than once", line_no)});
      continue;
    }
    if (!previous.empty() && path < previous) {
      problems.push_back({"sums.unsorted", path,
                          fmt::format("line {}: comes after '{}' but sorts before it", line_no,
                                      printable(previous))});
    }
    previous = path;
    listing.digests.emplace(path, std::string(line.substr(0, 64)));
  }
  return listing;
}

// SHA256SUMS's text, opened beneath the bundle without following a link; none, with the problem
// added, when it cannot be read.
std::optional<std::string> read_sums_file(int root, const std::string& bundle_dir,
                                          std::vector<SumsProblem>& problems) {
  UniqueFd sums_fd(::openat(root, kSha256SumsName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  struct stat st {};
  if (!sums_fd.valid() || ::fstat(sums_fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    const int err = sums_fd.valid() ? 0 : errno;
    problems.push_back({"sums.missing", kSha256SumsName,
                        err == ENOENT ? "the bundle has no SHA256SUMS"
                        : err != 0 ? bundle_detail::sys_error("cannot open SHA256SUMS", err).message
                                   : "SHA256SUMS is not a regular file"});
    return std::nullopt;
  }
  auto text = read_all(sums_fd.get(), bundle_dir + "/" + kSha256SumsName);
  if (!text) {
    problems.push_back({"sums.unreadable", kSha256SumsName, text.error().message});
    return std::nullopt;
  }
  return std::move(*text);
}

// The bundle's tree: its regular files (SHA256SUMS aside) and its directories; anything else is
// a problem.
struct TreeFiles {
  std::set<std::string> present;
  std::set<std::string> directories;
};
TreeFiles sort_tree(const std::vector<bundle_detail::TreeEntry>& tree,
                    std::vector<SumsProblem>& file_problems) {
  TreeFiles t;
  for (const auto& entry : tree) {
    using Kind = bundle_detail::TreeEntry::Kind;
    if (entry.kind == Kind::regular) {
      if (entry.relative != kSha256SumsName) t.present.insert(entry.relative);
    } else if (entry.kind == Kind::directory) {
      t.directories.insert(entry.relative);
    } else {
      file_problems.push_back({"sums.not_regular", printable(entry.relative),
                               fmt::format("a {} in the bundle; a bundle holds only regular "
                                           "files and directories",
                                           entry.other_type)});
    }
  }
  return t;
}

// A listed file's bytes against its digest.
void check_listed_file(int root, const std::string& bundle_dir, const std::string& path,
                       const std::string& expected, std::vector<SumsProblem>& file_problems) {
  auto fd = bundle_detail::open_file_beneath(root, path, bundle_dir);
  if (!fd) {
    file_problems.push_back({"sums.unreadable", path, fd.error().message});
    return;
  }
  auto actual = fd_sha256(fd->get(), bundle_dir + "/" + path);
  if (!actual) {
    file_problems.push_back({"sums.unreadable", path, actual.error().message});
  } else if (*actual != expected) {
    file_problems.push_back(
        {"sums.mismatch", path, fmt::format("expected {}, found {}", expected, *actual)});
  }
}

}  // namespace

std::vector<SumsProblem> verify_sha256sums(const std::string& bundle_dir) {
  std::vector<SumsProblem> problems;
  UniqueFd root(::open(bundle_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!root.valid()) {
    const int err = errno;
    problems.push_back({"sums.bundle_unreadable", "",
                        bundle_detail::sys_error("cannot open " + bundle_dir, err).message});
    return problems;
  }
  auto text = read_sums_file(root.get(), bundle_dir, problems);
  if (!text) return problems;
  const Listing listing = parse_sums(*text, problems);
  auto tree = bundle_detail::walk_tree(root.get(), bundle_dir);
  if (!tree) {
    problems.push_back({"sums.bundle_unreadable", "", tree.error().message});
    return problems;
  }
  std::vector<SumsProblem> file_problems;
  const TreeFiles files = sort_tree(*tree, file_problems);
  for (const auto& [path, expected] : listing.digests) {
    if (files.present.count(path) != 0) {
      check_listed_file(root.get(), bundle_dir, path, expected, file_problems);
    } else if (files.directories.count(path) != 0) {
      file_problems.push_back({"sums.not_regular", path, "listed, but it is a directory"});
    } else if (std::none_of(file_problems.begin(), file_problems.end(),
                            [&](const SumsProblem& p) { return p.path == path; })) {
      file_problems.push_back(
          {"sums.file_missing", path, "listed in SHA256SUMS, not in the bundle"});
    }
  }
  for (const auto& path : files.present) {
    if (listing.digests.count(path) == 0) {
      file_problems.push_back(
          {"sums.file_unlisted", printable(path), "in the bundle, not in SHA256SUMS"});
    }
  }
  std::stable_sort(file_problems.begin(), file_problems.end(),
                   [](const SumsProblem& a, const SumsProblem& b) { return a.path < b.path; });
  problems.insert(problems.end(), file_problems.begin(), file_problems.end());
  return problems;
}

}  // namespace jbench
