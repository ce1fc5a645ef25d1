#include "bundle_editor.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "jbench/bundle/sha256sums.h"
#include "jbench/collect/summaries.h"
#include "jbench/results/summary.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

// A fixture that cannot be edited is a broken test setup, not a finding: stop loudly.
[[noreturn]] void broken(const std::string& what) {
  std::fprintf(stderr, "bundle editor: %s\n", what.c_str());
  std::abort();
}

}  // namespace

std::string BundleEditor::text(const std::string& relative) const {
  std::ifstream in(path(relative), std::ios::binary);
  if (!in) broken("cannot read " + path(relative));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void BundleEditor::write_text(const std::string& relative, const std::string& text) const {
  fs::create_directories(fs::path(path(relative)).parent_path());
  std::ofstream out(path(relative), std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) broken("cannot write " + path(relative));
}

nlohmann::json BundleEditor::json(const std::string& relative) const {
  auto doc = nlohmann::json::parse(text(relative), nullptr, false);
  if (doc.is_discarded()) broken(relative + " is not JSON");
  return doc;
}

void BundleEditor::write_json(const std::string& relative, const nlohmann::json& doc) const {
  write_text(relative, doc.dump(2) + "\n");
}

void BundleEditor::remove(const std::string& relative) const {
  std::error_code ec;
  if (fs::remove_all(path(relative), ec) == 0 || ec) broken("cannot remove " + path(relative));
}

void BundleEditor::resummarize(const std::string& run_id) const {
  const std::string dir = "runs/" + run_id;
  std::vector<nlohmann::json> results;
  for (int i = 0; fs::exists(path(dir + "/raw/worker-" + std::to_string(i) + ".result.json"));
       ++i) {
    results.push_back(json(dir + "/raw/worker-" + std::to_string(i) + ".result.json"));
  }
  const nlohmann::json run = json(dir + "/run.json");
  nlohmann::json summary = summarize_run(results, run);
  summary["collectors"] = collect::summarize_collectors(path(dir), run);
  write_json(dir + "/summary.json", summary);
}

void BundleEditor::rewrite_sums() const {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(root_)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), root_).string();
    if (rel != kSha256SumsName) files.push_back(rel);
  }
  std::sort(files.begin(), files.end());  // byte order, as SHA256SUMS requires
  std::string sums;
  for (const auto& rel : files) {
    auto digest = file_sha256(path(rel));
    if (!digest) broken(digest.error().message);
    sums += sha256sums_line(*digest, rel);
  }
  write_text(kSha256SumsName, sums);
}

}  // namespace jbench::test
