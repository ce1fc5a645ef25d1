#include "jbench/model/bundle_reader.h"

#include "jbench/bundle/json_file.h"

namespace jbench::model {

namespace {

Result<Manifest> read_manifest_file(const std::string& path) {
  auto doc = read_json_object(path);
  if (!doc) return doc.error();
  return read_manifest(*doc, path);
}

}  // namespace

BundleReader::BundleReader(std::string dir)
    : dir_(std::move(dir)),
      judgement_(dir_),
      manifest_(read_manifest_file(dir_ + "/manifest.json")) {}

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
