// Editing a copy of a bundle for a test: read and write its documents, and rewrite SHA256SUMS
// afterwards so that the rule under test, not the checksum, is what a validator sees broken.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace jbench::test {

class BundleEditor {
 public:
  explicit BundleEditor(std::string root) : root_(std::move(root)) {}
  const std::string& root() const { return root_; }
  std::string path(const std::string& relative) const { return root_ + "/" + relative; }

  nlohmann::json json(const std::string& relative) const;  // aborts the test binary if unusable
  void write_json(const std::string& relative, const nlohmann::json& doc) const;
  std::string text(const std::string& relative) const;
  void write_text(const std::string& relative, const std::string& text) const;
  void remove(const std::string& relative) const;  // a file or a whole directory

  // runs/<id>/summary.json recomputed from its raw/ and run.json, as the runner does, so a
  // mutation of the raw records leaves a summary that agrees with them.
  void resummarize(const std::string& run_id) const;
  // The result message of `worker` in runs/<id>/logs/protocol.jsonl replaced by `result`, so a
  // mutation of raw/worker-<i>.result.json leaves a transcript that agrees with it.
  void rewrite_transcript_result(const std::string& run_id, std::size_t worker,
                                 const nlohmann::json& result) const;
  // SHA256SUMS over every regular file but itself, in the format verify_sha256sums reads.
  void rewrite_sums() const;

 private:
  std::string root_;
};

}  // namespace jbench::test
