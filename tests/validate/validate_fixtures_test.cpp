// `jbench validate` on the checked-in valid bundle and on every mutation of it: the valid one
// passes, each lie is rejected with exactly its codes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "bundle_editor.h"
#include "collector_fixture.h"
#include "mutations.h"
#include "temp_dir.h"
#include "validate_test_support.h"

namespace jbench::test {
namespace {

using ::testing::ElementsAreArray;

TEST(ValidateFixtures, valid_bundle_passes_with_exit_0) {
  const auto r = run_validate_json(valid_fixture());
  ASSERT_FALSE(r.process.timed_out);
  EXPECT_EQ(r.process.exit_code, 0) << r.process.out << r.process.err;
  ASSERT_TRUE(r.report.is_object()) << r.process.out;
  EXPECT_EQ(r.report["valid"], true);
  EXPECT_EQ(r.report["findings"], nlohmann::json::array());
}

TEST(ValidateFixtures, valid_bundle_text_form_says_valid) {
  const auto r = run_validate_text(valid_fixture());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "valid: " + valid_fixture() + "\n");
}

class ValidateMutation : public ::testing::TestWithParam<Mutation> {};

TEST_P(ValidateMutation, is_rejected_with_exactly_its_codes) {
  const Mutation& m = GetParam();
  TempDir dir;
  const std::string bundle = dir.path() + "/" + m.dir_name();
  copy_valid_fixture(bundle);
  m.apply(BundleEditor(bundle));
  const auto r = run_validate_json(bundle);
  ASSERT_FALSE(r.process.timed_out);
  EXPECT_EQ(r.process.exit_code, 1) << m.what << "\n" << r.process.out << r.process.err;
  ASSERT_TRUE(r.report.is_object()) << r.process.out;
  EXPECT_EQ(r.report["valid"], false);
  EXPECT_THAT(r.codes, ElementsAreArray(
                           std::set<std::string>(m.expected_codes.begin(), m.expected_codes.end())))
      << m.what << "\n"
      << r.process.out;
}

INSTANTIATE_TEST_SUITE_P(EveryLie, ValidateMutation, ::testing::ValuesIn(mutations()),
                         [](const auto& p) {
                           std::string name = p.param.name;
                           for (char& c : name) c = (c == '-') ? '_' : c;
                           return name;
                         });

// Findings point at the place: the file and, inside a JSON document, the value.
TEST(ValidateFixtures, a_finding_names_its_file_and_pointer) {
  TempDir dir;
  const std::string bundle = dir.path() + "/b";
  copy_valid_fixture(bundle);
  BundleEditor e(bundle);
  const std::string file = "runs/" + kWriterRun + "/run.json";
  auto run = e.json(file);
  run["cohort"]["members"][0]["registered_ns"] = "99999999999999";
  e.write_json(file, run);
  e.rewrite_sums();
  const auto r = run_validate_json(bundle);
  ASSERT_EQ(r.report["findings"].size(), 1u) << r.process.out;
  const auto& f = r.report["findings"][0];
  EXPECT_EQ(f["code"], "cohort.registered_late");
  EXPECT_EQ(f["file"], file);
  EXPECT_EQ(f["pointer"], "/cohort/members/0/registered_ns");
}

// All findings are listed, not only the first: two lies in two files give both.
TEST(ValidateFixtures, lists_every_finding_not_only_the_first) {
  TempDir dir;
  const std::string bundle = dir.path() + "/b";
  copy_valid_fixture(bundle);
  BundleEditor e(bundle);
  e.write_text("matrix.yaml", e.text("matrix.yaml") + "# edited\n");
  e.write_text("notes.txt", "x\n");
  const auto r = run_validate_json(bundle);
  EXPECT_EQ(r.process.exit_code, 1);
  EXPECT_THAT(r.codes,
              ElementsAreArray({"matrix.sha256_mismatch", "sums.file_unlisted", "sums.mismatch"}))
      << r.process.out;
}

// The user's case: copy a bundle, check it, and see a one-byte change caught.
TEST(ValidateCopy, copy_validates_then_a_flipped_byte_in_a_summary_is_a_mismatch) {
  TempDir dir;
  const std::string bundle = dir.path() + "/copy";
  copy_valid_fixture(bundle);
  EXPECT_EQ(run_validate_json(bundle).process.exit_code, 0);

  const std::string file = "runs/" + kMixedRun + "/summary.json";
  BundleEditor e(bundle);
  std::string text = e.text(file);
  const auto digit = text.find_first_of("123456789", text.find("\"reads\""));
  ASSERT_NE(digit, std::string::npos);
  text[digit] = text[digit] == '9' ? '8' : static_cast<char>(text[digit] + 1);
  e.write_text(file, text);

  const auto r = run_validate_json(bundle);
  EXPECT_EQ(r.process.exit_code, 1) << r.process.out;
  bool found = false;
  for (const auto& f : r.report["findings"]) {
    found = found || (f["code"] == "sums.mismatch" && f["file"] == file);
  }
  EXPECT_TRUE(found) << r.process.out;
  // The changed number is also reported for what it is, not hidden behind the checksum.
  EXPECT_TRUE(r.codes.count("summary.mismatch")) << r.process.out;
}

TEST(ValidateUsage, a_missing_directory_is_exit_2) {
  TempDir dir;
  const auto r = run_validate_json(dir.path() + "/nothing-here");
  EXPECT_EQ(r.process.exit_code, 2);
  EXPECT_EQ(r.report["unreadable"], true);
  EXPECT_EQ(r.codes, std::set<std::string>{"bundle.unreadable"});
}

TEST(ValidateUsage, no_bundle_argument_is_exit_2) {
  const auto r = run_process({JBENCH_BINARY, "validate"}, {});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("BUNDLE"), std::string::npos) << r.err;
}

// docs/validate.md documents every code a test expects.
TEST(ValidateDocs, every_expected_code_is_documented) {
  std::ifstream in(std::string(JBENCH_SOURCE_DIR) + "/docs/validate.md");
  std::stringstream s;
  s << in.rdbuf();
  const std::string doc = s.str();
  ASSERT_FALSE(doc.empty());
  std::set<std::string> codes = {"bundle.unreadable", "validate.check_aborted"};
  for (const auto& m : mutations()) codes.insert(m.expected_codes.begin(), m.expected_codes.end());
  for (const auto& code : codes) {
    EXPECT_NE(doc.find("`" + code + "`"), std::string::npos) << code << " is not documented";
  }
}

}  // namespace
}  // namespace jbench::test

namespace jbench::test {
namespace {

// A process a worker forks joins the cohort at the next scan, after the release: that is not
// late registration (it could not exist earlier), and the bundle stays valid.
using Json = nlohmann::json;

TEST(ValidateCohort, a_forked_member_registered_after_the_release_is_not_late) {
  TempDir dir;
  const std::string bundle = dir.path() + "/forked";
  copy_valid_fixture(bundle);
  const BundleEditor e(bundle);
  const Json manifest = e.json("manifest.json");
  const std::string file = "runs/" + manifest["runs"][0]["id"].get<std::string>() + "/run.json";
  Json run = e.json(file);
  Json child = run["cohort"]["members"][0];
  child["worker"] = nullptr;
  child["runtime_id"] = nullptr;
  child["forked"] = true;
  child["ppid"] = child["pid"];
  child["pid"] = child["pid"].get<int>() + 1;
  child["comm"] = "helper";
  child["registered_ns"] =
      std::to_string(std::stoull(run["boundaries"]["warmup_end_ns"].get<std::string>()));
  run["cohort"]["members"].push_back(child);
  e.write_json(file, run);
  e.rewrite_sums();
  const auto r = run_validate_json(bundle);
  EXPECT_EQ(r.process.exit_code, 0) << r.process.out << r.process.err;
}

}  // namespace
}  // namespace jbench::test

namespace jbench::test {
namespace {

// The honest collector the event mutations start from validates: a lie is what fails them.
TEST(ValidateCollectors, a_run_with_a_well_formed_collector_and_raw_file_is_valid) {
  TempDir dir;
  const std::string bundle = dir.path() + "/with-collector";
  copy_valid_fixture(bundle);
  add_spans_collector(BundleEditor(bundle), kWriterRun);
  const auto r = run_validate_json(bundle);
  EXPECT_EQ(r.process.exit_code, 0) << r.process.out << r.process.err;
}

// A run keeps the raw files it has read compressed: the same lines validate in that form.
TEST(ValidateCollectors, a_raw_file_kept_compressed_is_valid) {
  TempDir dir;
  const std::string bundle = dir.path() + "/compressed";
  copy_valid_fixture(bundle);
  const BundleEditor e(bundle);
  add_spans_collector(e, kWriterRun);
  const std::string kept = keep_spans_compressed(e, kWriterRun);
  ASSERT_TRUE(kept.ends_with(".zst")) << kept;
  const auto r = run_validate_json(bundle);
  EXPECT_EQ(r.process.exit_code, 0) << r.process.out << r.process.err;
}

}  // namespace
}  // namespace jbench::test

namespace jbench::test {
namespace {

// Hostile input: each ends in findings or a clear error, in bounded time and memory.
TEST(ValidateBadInput, a_json_nesting_bomb_is_a_finding_not_a_crash) {
  TempDir dir;
  const std::string bundle = dir.path() + "/bomb";
  copy_valid_fixture(bundle);
  const BundleEditor e(bundle);
  const std::string run = "runs/" + kWriterRun + "/run.json";
  e.write_text(run, std::string(1'000'000, '[') + std::string(1'000'000, ']') + "\n");
  e.rewrite_sums();
  const auto r = run_validate_json(bundle);
  ASSERT_FALSE(r.process.timed_out);
  EXPECT_EQ(r.process.exit_code, 1);
  EXPECT_TRUE(r.codes.count("schema.run")) << r.process.out;
}

TEST(ValidateBadInput, an_empty_directory_is_invalid_with_every_missing_document_named) {
  TempDir dir;
  const auto r = run_validate_json(dir.path());
  EXPECT_EQ(r.process.exit_code, 1);
  EXPECT_TRUE(r.codes.count("sums.missing"));
  EXPECT_TRUE(r.codes.count("document.missing"));
}

TEST(ValidateBadInput, a_raw_file_of_one_endless_line_is_refused_without_holding_it) {
  TempDir dir;
  const std::string bundle = dir.path() + "/endless";
  copy_valid_fixture(bundle);
  const BundleEditor e(bundle);
  add_spans_collector(e, kWriterRun);
  // 64 MiB of zeros and no newline, sparse on disk: a reader that holds a line would need it all.
  const std::string raw = e.path("runs/" + kWriterRun + "/raw/spans.events.jsonl");
  ASSERT_EQ(truncate(raw.c_str(), 64LL << 20), 0);
  e.rewrite_sums();
  const auto r = run_validate_json(bundle);
  ASSERT_FALSE(r.process.timed_out);
  EXPECT_EQ(r.process.exit_code, 1);
  EXPECT_TRUE(r.codes.count("events.malformed")) << r.process.out;
}

// The raw documents' schemas are closed, but they accept what the collectors write.
TEST(ValidateFixtures, an_honest_syscall_summary_passes) {
  TempDir dir;
  const std::string bundle = dir.path() + "/b";
  copy_valid_fixture(bundle);
  BundleEditor e(bundle);
  e.write_json("runs/" + kWriterRun + "/raw/syscall.summary.json", honest_syscall_summary());
  e.write_json("runs/" + kMixedRun + "/raw/syscall.summary.json", nlohmann::json::object());
  e.rewrite_sums();
  const auto r = run_validate_json(bundle);
  EXPECT_EQ(r.process.exit_code, 0) << r.process.out;
  EXPECT_EQ(r.report["findings"], nlohmann::json::array());
}

// A transcript entry's line is reported by number, so a person can open the file at it.
TEST(ValidateFixtures, a_transcript_finding_names_its_line) {
  TempDir dir;
  const std::string bundle = dir.path() + "/b";
  copy_valid_fixture(bundle);
  BundleEditor e(bundle);
  const std::string file = "runs/" + kMixedRun + "/logs/protocol.jsonl";
  std::string text = e.text(file);
  text.insert(text.find('\n') + 1, "{\"t_ns\": 1}\n");
  e.write_text(file, text);
  e.rewrite_sums();
  const auto r = run_validate_json(bundle);
  ASSERT_GE(r.report["findings"].size(), 1u) << r.process.out;
  for (const auto& f : r.report["findings"]) {
    EXPECT_EQ(f["code"], "protocol.malformed") << f.dump();
    EXPECT_EQ(f["file"], file);
    EXPECT_EQ(f["pointer"], "line 2");
  }
}

}  // namespace
}  // namespace jbench::test
