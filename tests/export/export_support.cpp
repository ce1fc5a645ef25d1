#include "export_support.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "jbench/bundle/sha256sums.h"
#include "temp_dir.h"

namespace jbench::test {

std::string export_fixture(const std::string& name) {
  static TempDir copies;  // for the test process's life
  const std::string copy = copies.path() + "/" + name;
  if (!std::filesystem::exists(copy)) {
    std::filesystem::copy(std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/export/" + name, copy,
                          std::filesystem::copy_options::recursive);
    // A bundle fixture is sealed; a matrix fixture (traced.yaml) is a file, used as it is.
    if (std::filesystem::is_directory(copy)) seal_bundle(copy);
  }
  return copy;
}

void seal_bundle(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string rel = std::filesystem::relative(e.path(), dir).string();
    if (e.is_regular_file() && rel != kSha256SumsName) files.push_back(rel);
  }
  std::sort(files.begin(), files.end());
  std::string sums;
  for (const auto& rel : files) {
    const auto digest = file_sha256(dir + "/" + rel);
    if (!digest) throw std::runtime_error("cannot hash " + rel);
    sums += sha256sums_line(*digest, rel);
  }
  std::ofstream(dir + "/" + kSha256SumsName, std::ios::trunc) << sums;
}

ProcessResult run_jbench(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {JBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions options;
  options.timeout = std::chrono::seconds(60);
  return run_process(argv, options);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string unpaired_slices(const nlohmann::json& trace) {
  // Pairing each E with the latest open B of its track, and requiring every B and E of a track
  // to be no earlier than the one before it, is what proper nesting means: a slice begun inside
  // another ends before it.
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<double>> open;
  std::map<std::pair<std::int64_t, std::int64_t>, double> cursor;
  for (const auto& e : trace["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph != "B" && ph != "E") continue;
    const auto track = std::make_pair(e["pid"].get<std::int64_t>(), e["tid"].get<std::int64_t>());
    const double ts = e["ts"];
    if (cursor.contains(track) && ts < cursor[track])
      return "out of order on its track: " + e.dump();
    cursor[track] = ts;
    auto& stack = open[track];
    if (ph == "B") {
      stack.push_back(ts);
      continue;
    }
    if (stack.empty()) return "an E without its B: " + e.dump();
    stack.pop_back();
  }
  for (const auto& [track, stack] : open) {
    if (!stack.empty()) {
      return "a B without its E on pid " + std::to_string(track.first) + " tid " +
             std::to_string(track.second);
    }
  }
  return {};
}

std::vector<std::string> time_texts(const std::string& text) {
  static const std::regex re(R"re("(ts|dur)":([^,}]*))re");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    out.push_back((*it)[2]);
  }
  return out;
}

}  // namespace jbench::test
