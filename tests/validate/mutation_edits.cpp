// The edits the mutation catalogue is made of: each changes a document of a copy of the valid
// bundle the way a liar would, keeping what the runner derives from it consistent.
#include "mutation_edits.h"

namespace jbench::test {

std::string run_file(const std::string& run, const std::string& name) {
  return "runs/" + run + "/" + name;
}

std::function<void(const BundleEditor&)> edit(std::string file, std::function<void(Json&)> f) {
  return [file = std::move(file), f = std::move(f)](const BundleEditor& e) {
    Json doc = e.json(file);
    f(doc);
    e.write_json(file, doc);
    e.rewrite_sums();
  };
}

std::function<void(const BundleEditor&)> edit_raw(std::string run, std::function<void(Json&)> f) {
  return [run = std::move(run), f = std::move(f)](const BundleEditor& e) {
    const std::string file = run_file(run, "raw/worker-0.result.json");
    Json doc = e.json(file);
    f(doc);
    e.write_json(file, doc);
    e.rewrite_transcript_result(run, 0, doc);
    e.resummarize(run);
    e.rewrite_sums();
  };
}

std::uint64_t ns(const Json& v) { return std::stoull(v.get<std::string>()); }

}  // namespace jbench::test
