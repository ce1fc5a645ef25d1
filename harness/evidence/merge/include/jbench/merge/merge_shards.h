// `jbench merge OUT SHARD...`: shard bundles of one plan joined into one bundle at OUT.
//
//   MergeOutcome m = merge_shards({"bundles/sqlite-all", {"s/0", "s/1", "s/2", "s/3"}});
//   // m.result: merged (valid), refused (m.findings, nothing written), invalid (merged, the
//   // validator's findings in m.findings), bad_request (no shard, OUT exists: m.message),
//   // not_written (files of the bundle or its seal failed: m.not_written, m.message)
//
// Every shard must carry its validator's verdict and match its SHA256SUMS (a shard that does not
// is validated in full, to say why), and is checked against the others (shard_check.h);
// nothing is written unless all of it holds. The merged bundle then holds every run's directory
// byte for byte as its shard wrote it (hard links where the shards are on the same file system:
// a merge takes no space and no time to copy; a copy otherwise), every shard's own documents under
// shards/<K>/ (its manifest, plan, capabilities, build, provenance index, validation and
// SHA256SUMS), and the merged manifest, plan and provenance; it is validated, checksummed last and
// renamed into place in one step, like a session's (docs/bundle.md).
#pragma once

#include <string>
#include <vector>

#include "jbench/merge/shard_check.h"

namespace jbench::merge {

struct MergeRequest {
  std::string out;                  // the merged bundle's path; its parent is made if missing
  std::vector<std::string> shards;  // the shard bundles, in any order
};

enum class MergeResult { merged, refused, invalid, bad_request, not_written };

struct MergeOutcome {
  MergeResult result = MergeResult::merged;
  std::string bundle;                    // the final path, when one was written
  std::vector<MergeFinding> findings;    // why it was refused
  std::string message;                   // for a bad request or a failed seal: one sentence
  std::vector<std::string> not_written;  // files of the merged bundle that could not be written
  std::size_t runs = 0, hosts = 0;
};

MergeOutcome merge_shards(const MergeRequest& request);

}  // namespace jbench::merge
