// EvidenceBundle on its own: a failed write is recorded and the rest still lands; seal() then
// names it in validation.json and renames the bundle <name>.invalid with its checksums whole; a
// bundle whose every write landed but which breaks the validator's rules is sealed invalid too;
// a seal that cannot write SHA256SUMS leaves the staging directory and can be tried again.
#include "jbench/seal/evidence_bundle.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "jbench/bundle/sha256sums.h"
#include "temp_dir.h"
#include "text_file.h"

namespace jbench::test {
namespace evidence_bundle {

namespace fs = std::filesystem;
using nlohmann::json;

// JBENCH_FAULT_WRITE set for the life of the object (docs/bundle.md, "Planted faults").
class PlantedFault {
 public:
  explicit PlantedFault(const char* pattern) { ::setenv("JBENCH_FAULT_WRITE", pattern, 1); }
  ~PlantedFault() { ::unsetenv("JBENCH_FAULT_WRITE"); }
  PlantedFault(const PlantedFault&) = delete;
  PlantedFault& operator=(const PlantedFault&) = delete;
};

json read_json(const std::string& path) { return json::parse(read_text(path), nullptr, false); }

TEST(EvidenceBundle, a_failed_write_is_recorded_and_seals_the_bundle_invalid_with_the_rest) {
  TempDir dir;
  auto staged = EvidenceBundle::create(dir.path(), "b");
  ASSERT_TRUE(staged) << staged.error().message;
  EvidenceBundle& bundle = *staged;
  {
    PlantedFault fault("runs/*/run.json");
    bundle.json("runs/r1/run.json", {{"id", "r1"}});
    bundle.text("runs/r1/logs/worker.log", "kept\n");
  }
  bundle.append_line("logs/session.log", "after the fault");
  ASSERT_EQ(bundle.failures().size(), 1u);
  EXPECT_NE(bundle.failures()[0].find("runs/r1/run.json"), std::string::npos);
  // Named within the bundle: the staging directory is renamed by the seal.
  EXPECT_EQ(bundle.failures()[0].find(".staging-"), std::string::npos) << bundle.failures()[0];

  auto sealed = bundle.seal(false);
  ASSERT_TRUE(sealed) << sealed.error().message;
  EXPECT_FALSE(sealed->valid);
  EXPECT_EQ(sealed->outcome, Outcome::invalid);
  EXPECT_EQ(sealed->path, dir.path() + "/b.invalid");
  EXPECT_EQ(read_text(sealed->path + "/runs/r1/logs/worker.log"), "kept\n");
  EXPECT_FALSE(fs::exists(sealed->path + "/runs/r1/run.json"));
  const json validation = read_json(sealed->path + "/validation.json");
  EXPECT_FALSE(validation["valid"].get<bool>());
  ASSERT_EQ(validation["write_failures"].size(), 1u) << validation.dump(2);
  EXPECT_NE(validation["write_failures"][0].get<std::string>().find("JBENCH_FAULT_WRITE"),
            std::string::npos);
  EXPECT_TRUE(verify_sha256sums(sealed->path).empty());
  EXPECT_NE(not_written_lines(sealed->failures).find("not written: cannot write"),
            std::string::npos);
}

TEST(EvidenceBundle, every_write_landing_is_not_enough_the_validator_must_pass_too) {
  TempDir dir;
  auto staged = EvidenceBundle::create(dir.path(), "b");
  ASSERT_TRUE(staged) << staged.error().message;
  EvidenceBundle& bundle = *staged;
  bundle.json("manifest.json", {{"schema", "not a manifest"}});
  EXPECT_TRUE(bundle.all_written());
  auto sealed = bundle.seal(true);
  ASSERT_TRUE(sealed) << sealed.error().message;
  EXPECT_FALSE(sealed->valid);
  EXPECT_TRUE(sealed->failures.empty());
  EXPECT_FALSE(sealed->report.findings.empty());
  // Invalid wins over interrupted: a bundle is never named as if only a signal were wrong.
  EXPECT_EQ(sealed->path, dir.path() + "/b.invalid");
}

TEST(EvidenceBundle, a_seal_that_cannot_write_its_sums_leaves_the_staging_directory_and_retries) {
  TempDir dir;
  auto staged = EvidenceBundle::create(dir.path(), "b");
  ASSERT_TRUE(staged) << staged.error().message;
  EvidenceBundle& bundle = *staged;
  bundle.json("manifest.json", {{"schema", "not a manifest"}});
  {
    PlantedFault fault("SHA256SUMS");
    auto sealed = bundle.seal(false);
    ASSERT_FALSE(sealed);
    EXPECT_NE(sealed.error().message.find("SHA256SUMS"), std::string::npos);
  }
  EXPECT_TRUE(fs::exists(bundle.root() + "/validation.json"));
  EXPECT_FALSE(fs::exists(bundle.root() + "/SHA256SUMS"));
  EXPECT_FALSE(fs::exists(dir.path() + "/b.invalid"));
  // The staging directory stays usable: a second seal, once the fault is gone, completes it.
  auto again = bundle.seal(false);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->path, dir.path() + "/b.invalid");
  EXPECT_TRUE(verify_sha256sums(again->path).empty());
}

}  // namespace evidence_bundle
}  // namespace jbench::test
