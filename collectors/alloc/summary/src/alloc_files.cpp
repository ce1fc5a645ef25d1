// Locating a run's sampler files and the run's phase windows. No sample is read here.
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "jbench/alloc/alloc_summary.h"
#include "jbench/collectors/api/phases.h"
#include "jbench/events/compressed_file.h"

namespace jbench::alloc {
namespace {

std::optional<std::uint64_t> boundary(const nlohmann::json& b, const std::string& key) {
  if (!b.is_object() || !b.contains(key) || !b[key].is_string()) return {};
  const std::string& s = b[key].get_ref<const std::string&>();
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return {};
  return v;
}

// "<pid>" of a child's file named "<out>.<pid>" or, once kept compressed, "<out>.<pid>.zst".
std::string_view without_compressed_suffix(std::string_view s) {
  const std::string_view suffix = events::kCompressedSuffix;
  if (s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix)
    s.remove_suffix(suffix.size());
  return s;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> find_alloc_files(const std::string& out_path) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  const fs::path out(out_path);
  const std::string compressed_out = out_path + events::kCompressedSuffix;
  for (const std::string& own : {out_path, compressed_out}) {
    if (fs::is_regular_file(own, ec)) files.push_back(own);
  }
  const std::size_t own_files = files.size();
  const fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
  const std::string prefix = out.filename().string() + ".";
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
        all_digits(without_compressed_suffix(std::string_view(name).substr(prefix.size()))) &&
        it->is_regular_file(ec)) {
      files.push_back((out.has_parent_path() ? (dir / name) : fs::path(name)).string());
    }
  }
  std::sort(files.begin() + static_cast<std::ptrdiff_t>(own_files), files.end());
  return files;
}

std::vector<PhaseWindow> phases_from_boundaries(const nlohmann::json& boundaries) {
  const auto& phases = collectors::kPhases;
  std::vector<PhaseWindow> windows;
  for (std::size_t i = 0; i < phases.size(); ++i) {
    const std::string name(phases[i]);
    const auto start = boundary(boundaries, name + "_start_ns");
    auto end = boundary(boundaries, name + "_end_ns");
    if (!end && i + 1 < phases.size())
      end = boundary(boundaries, std::string(phases[i + 1]) + "_start_ns");
    if (start && end && *start <= *end) windows.push_back({name, *start, *end});
  }
  return windows;
}

}  // namespace jbench::alloc
