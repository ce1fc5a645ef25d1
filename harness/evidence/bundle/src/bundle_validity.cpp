#include "jbench/bundle/bundle_validity.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "jbench/bundle/sha256sums.h"

namespace jbench {

BundleValidity judge_bundle(const std::string& dir, bool check_sums) {
  BundleValidity out;
  const auto fail = [&](std::string why) {
    out.valid = false;
    out.reasons.push_back(std::move(why));
  };
  // "bundles/x/" names x, not "".
  const std::filesystem::path normal = std::filesystem::path(dir).lexically_normal();
  const std::string name =
      normal.has_filename() ? normal.filename().string() : normal.parent_path().filename().string();
  if (name.ends_with(".invalid")) {
    fail(fmt::format("its directory is named '{}': the run that wrote it found it invalid", name));
  }
  std::ifstream in(dir + "/validation.json");
  const nlohmann::json v = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
  if (!v.is_object() || !v.contains("valid") || !v["valid"].is_boolean()) {
    fail("validation.json is missing or unreadable, so the bundle cannot show that it passed");
  } else if (!v["valid"].get<bool>()) {
    fail(fmt::format("validation.json records {} findings",
                     v.contains("finding_count") && v["finding_count"].is_number()
                         ? v["finding_count"].dump()
                         : std::string("unknown")));
  }
  if (check_sums) {
    const auto problems = verify_sha256sums(dir);
    if (!problems.empty()) {
      fail(fmt::format(
          "SHA256SUMS: {} {}: {}{}", problems.front().code, problems.front().path,
          problems.front().detail,
          problems.size() > 1 ? fmt::format(" (and {} more)", problems.size() - 1) : ""));
    }
  }
  return out;
}

BundleJudgement::BundleJudgement(const std::string& bundle_dir)
    : verdict_(std::async(std::launch::async, judge_bundle, bundle_dir, true).share()) {}

bool has_manifest(const std::string& bundle_dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(bundle_dir + "/manifest.json", ec);
}

bool is_oracle_bundle(const std::string& bundle_dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(bundle_dir + "/oracle.json", ec) &&
         !std::filesystem::exists(bundle_dir + "/manifest.json", ec);
}

bool is_proposal_bundle(const std::string& bundle_dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(bundle_dir + "/proposal.json", ec) &&
         !std::filesystem::exists(bundle_dir + "/manifest.json", ec);
}

}  // namespace jbench
