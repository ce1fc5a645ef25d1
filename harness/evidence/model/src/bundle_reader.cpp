#include "jbench/model/bundle_reader.h"

#include "jbench/bundle/json_file.h"

namespace jbench::model {

Result<BundleReader> BundleReader::open(const std::string& dir) {
  const std::string path = dir + "/manifest.json";
  auto doc = read_json_object(path);
  if (!doc) return doc.error();
  auto manifest = read_manifest(*doc, path);
  if (!manifest) return manifest.error();
  return BundleReader(dir, std::move(*manifest));
}

Result<Plan> BundleReader::plan() const {
  const std::string path = dir_ + "/plan.json";
  auto doc = read_json_object(path);
  if (!doc) return doc.error();
  return read_plan(*doc, path);
}

std::string BundleReader::run_dir(const std::string& id) const { return dir_ + "/runs/" + id; }

Result<RunDocument> BundleReader::run(const std::string& id) const {
  const std::string path = run_dir(id) + "/run.json";
  auto doc = read_json_object(path);
  if (!doc) return doc.error();
  return read_run_document(*doc, path);
}

Result<Summary> BundleReader::summary(const std::string& id) const {
  const std::string path = run_dir(id) + "/summary.json";
  auto doc = read_json_object(path);
  if (!doc) return doc.error();
  return read_summary(*doc, path);
}

}  // namespace jbench::model
