// `jbench report` reads evidence only from a valid bundle, in each of its forms (the attribution,
// --overhead-only, --cells): an edited bundle is refused (exit 1) unless --allow-invalid, and
// then every text line says so and the JSON's bundle_valid is false. The checked-in valid bundle
// (tests/fixtures/bundles/valid) and a copy of it with one log file changed after it was sealed.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.h"
#include "temp_dir.h"
#include "validate_test_support.h"

namespace jbench::test {
namespace {

using Args = std::vector<std::string>;

ProcessResult report(const std::string& bundle, Args args) {
  args.insert(args.begin(), {JBENCH_BINARY, "report", bundle});
  ProcessOptions options;
  options.timeout = std::chrono::seconds(60);  // a safety net: a report of it takes a second
  return run_process(args, options);
}

// A copy of the valid bundle with one byte appended to a log after SHA256SUMS was written.
std::string edited_copy(const TempDir& dir) {
  const std::string copy = dir.path() + "/edited";
  copy_valid_fixture(copy);
  std::ofstream(copy + "/logs/session.log", std::ios::app) << "x";
  return copy;
}

std::size_t unmarked_lines(const std::string& text) {
  std::istringstream lines(text);
  std::size_t unmarked = 0;
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("[INVALID BUNDLE] ")) ++unmarked;
  }
  return unmarked;
}

const std::vector<Args> kTextForms = {{}, {"--overhead-only"}, {"--cells"}};
const std::vector<Args> kJsonForms = {{"--json"}, {"--overhead-only", "--json"}};

TEST(ReportValidity, every_form_refuses_an_edited_bundle_naming_why) {
  TempDir dir;
  const std::string copy = edited_copy(dir);
  for (auto forms : {kTextForms, kJsonForms}) {
    for (const Args& form : forms) {
      const ProcessResult r = report(copy, form);
      SCOPED_TRACE(::testing::PrintToString(form));
      EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
      EXPECT_TRUE(r.out.empty()) << r.out;
      EXPECT_NE(r.err.find("is invalid (SHA256SUMS"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("logs/session.log"), std::string::npos) << r.err;
    }
  }
}

TEST(ReportValidity, allowed_an_edited_bundle_is_reported_marked_invalid_everywhere) {
  TempDir dir;
  const std::string copy = edited_copy(dir);
  for (Args form : kTextForms) {
    form.push_back("--allow-invalid");
    const ProcessResult r = report(copy, form);
    SCOPED_TRACE(::testing::PrintToString(form));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(r.out.empty());
    if (form.front() == "--cells") {  // the table's first line says it of every figure below
      EXPECT_TRUE(r.out.starts_with("[INVALID BUNDLE] every figure below\n")) << r.out;
    } else {
      EXPECT_EQ(unmarked_lines(r.out), 0u) << r.out;
    }
  }
  for (Args form : kJsonForms) {
    form.push_back("--allow-invalid");
    const ProcessResult r = report(copy, form);
    SCOPED_TRACE(::testing::PrintToString(form));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_TRUE(json.is_object()) << r.out;
    EXPECT_EQ(json.value("bundle_valid", true), false) << r.out;
  }
}

TEST(ReportValidity, the_valid_bundle_is_reported_unmarked) {
  for (const Args& form : kTextForms) {
    const ProcessResult r = report(valid_fixture(), form);
    SCOPED_TRACE(::testing::PrintToString(form));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("INVALID"), std::string::npos) << r.out;
  }
  for (const Args& form : kJsonForms) {
    const ProcessResult r = report(valid_fixture(), form);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out, nullptr, false).value("bundle_valid", false), true);
  }
}

}  // namespace
}  // namespace jbench::test
