#include "bundle_editor.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "bundle_sums.h"
#include "jbench/bundle/sha256sums.h"
#include "jbench/collectors/modes/summaries.h"
#include "jbench/run_summaries/summary.h"

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
  summary["collectors"] = collectors::summarize_collectors(path(dir), run);
  write_json(dir + "/summary.json", summary);
}

void BundleEditor::rewrite_transcript_result(const std::string& run_id, std::size_t worker,
                                             const nlohmann::json& result) const {
  const std::string file = "runs/" + run_id + "/logs/protocol.jsonl";
  std::istringstream in(text(file));
  std::string out, line;
  bool found = false;
  while (std::getline(in, line)) {
    auto entry = nlohmann::json::parse(line, nullptr, false);
    if (entry.is_object() && entry.value("worker", std::size_t{0}) == worker &&
        entry.value("dir", "") == "in") {
      const auto message = nlohmann::json::parse(entry.value("line", ""), nullptr, false);
      if (message.is_object() && message.value("type", "") == "result") {
        entry["line"] = result.dump();
        line = entry.dump();
        found = true;
      }
    }
    out += line + "\n";
  }
  if (!found) broken(file + " has no result message of worker " + std::to_string(worker));
  write_text(file, out);
}

void BundleEditor::rewrite_sums() const {
  try {
    test::rewrite_sums(root_);
  } catch (const std::exception& e) {
    broken(e.what());
  }
}

}  // namespace jbench::test
