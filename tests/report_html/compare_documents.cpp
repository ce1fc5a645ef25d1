#include "compare_documents.h"

#include <filesystem>
#include <fstream>

#include "jbench/compare/compare.h"
#include "jbench/compare/history.h"

namespace jbench::test {

namespace fs = std::filesystem;

namespace {

const std::string kBundles = JBENCH_SOURCE_DIR + "/tests/fixtures/compare/bundles/";

}  // namespace

nlohmann::json comparison_document(const std::string& base, const std::string& candidate,
                                   bool allow_different_settings) {
  compare::CompareOptions options;
  options.allow_different_settings = allow_different_settings;
  return compare::comparison_to_json(
      compare::compare_bundles(compare::read_compare_side(kBundles + base),
                               compare::read_compare_side(kBundles + candidate), options));
}

void fill_history_folder(const std::string& dir) {
  auto copy = [&](const std::string& bundle, const std::string& name) {
    fs::copy(kBundles + bundle, dir + "/" + name, fs::copy_options::recursive);
  };
  // writer-a and writer-b started before writer-planted, so the copies sort as named here.
  for (int i = 0; i < 8; ++i) copy(i % 2 ? "writer-b" : "writer-a", "n0" + std::to_string(i));
  for (int i = 0; i < 8; ++i) copy("writer-planted", "p0" + std::to_string(i));
  copy("writer-b", "x-edited");
  for (const auto& run : fs::directory_iterator(dir + "/x-edited/runs")) {
    std::ofstream(run.path() / "summary.json", std::ios::app) << " ";
    break;
  }
}

std::string row_markup(const nlohmann::json& row) {
  const std::string verdict = row["verdict"];
  return "<tr class=\"row " + verdict + "\" data-cell=\"" + row["cell"].get<std::string>() +
         "\" data-metric=\"" + row["metric"].get<std::string>() + "\" data-verdict=\"" + verdict +
         "\">";
}

nlohmann::json history_document(const std::string& dir) {
  return compare::history_to_json(compare::read_history(dir, {}));
}

}  // namespace jbench::test
