// The macOS `sip` check on what `csrutil status` really prints (tests/fixtures/csrutil/): the
// parsed verdict, and the check the doctor makes of it, remediation word for word. Pure: runs on
// Linux.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "checks.h"
#include "jbench/doctor/parsers.h"

namespace jbench::doctor {
namespace {

constexpr const char* kWithoutDtrace =
    "boot into Recovery, run `csrutil enable --without dtrace` in its Terminal, reboot";
constexpr const char* kReadItYourself =
    "run `/usr/bin/csrutil status` and read it: jbench needs its 'System Integrity Protection "
    "status:' line and, in a Custom Configuration, its 'DTrace Restrictions:' line";
constexpr const char* kCustomEnabled =
    "System Integrity Protection is in a Custom Configuration ('enabled (Custom Configuration)')";
constexpr const char* kCustomUnknown =
    "System Integrity Protection is in a Custom Configuration ('unknown (Custom Configuration)')";
constexpr const char* kNoStatusLine = "no 'System Integrity Protection status:' line";

struct Case {
  const char* file;
  const char* status;
  bool custom;
  SipDtrace dtrace;
  std::string why_unknown;
  std::string reason_code;  // "" = available
  std::string detail;
  std::string remediation;
};

std::string fixture(const std::string& name) {
  const std::string path = std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/csrutil/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string unknown_detail(const std::string& why) {
  return "cannot tell from `csrutil status` whether SIP lets DTrace trace: " + why;
}

const Case kCases[] = {
    {"enabled.txt", "enabled", false, SipDtrace::restricted, "", "restricted_by_sip",
     "System Integrity Protection is enabled: DTrace cannot trace protected processes",
     kWithoutDtrace},
    {"disabled.txt", "disabled", false, SipDtrace::allowed, "", "",
     "System Integrity Protection is disabled: DTrace may trace every process", ""},
    {"custom-10.11-without-dtrace.txt", "enabled", true, SipDtrace::allowed, "", "",
     std::string(kCustomEnabled) +
         " with DTrace Restrictions disabled: DTrace may trace protected processes",
     ""},
    {"custom-10.11-without-kext.txt", "enabled", true, SipDtrace::restricted, "",
     "restricted_by_sip",
     std::string(kCustomEnabled) +
         " with DTrace Restrictions enabled: DTrace cannot trace protected processes",
     std::string(kWithoutDtrace) +
         " (the command replaces this configuration: to keep Kext Signing disabled, add its "
         "`--without` flag too)"},
    {"custom-10.11-all-disabled.txt", "enabled", true, SipDtrace::allowed, "", "",
     std::string(kCustomEnabled) +
         " with DTrace Restrictions disabled: DTrace may trace protected processes",
     ""},
    {"custom-11-dtrace-restricted.txt", "unknown", true, SipDtrace::restricted, "",
     "restricted_by_sip",
     std::string(kCustomUnknown) +
         " with DTrace Restrictions enabled: DTrace cannot trace protected processes",
     std::string(kWithoutDtrace) +
         " (the command replaces this configuration: to keep Filesystem Protections, Debugging "
         "Restrictions disabled, add their `--without` flags too)"},
    {"custom-12-dtrace-restricted.txt", "unknown", true, SipDtrace::restricted, "",
     "restricted_by_sip",
     std::string(kCustomUnknown) +
         " with DTrace Restrictions enabled: DTrace cannot trace protected processes",
     std::string(kWithoutDtrace) +
         " (the command replaces this configuration: to keep Filesystem Protections, Debugging "
         "Restrictions, NVRAM Protections, Boot-arg Restrictions, Kernel Integrity Protections "
         "disabled, add their `--without` flags too)"},
    {"custom-14-without-dtrace.txt", "unknown", true, SipDtrace::allowed, "", "",
     std::string(kCustomUnknown) +
         " with DTrace Restrictions disabled: DTrace may trace protected processes",
     ""},
    {"unknown-custom-cut-short.txt", "unknown", true, SipDtrace::unknown,
     "a Custom Configuration without a 'DTrace Restrictions' line", "unreadable",
     unknown_detail("a Custom Configuration without a 'DTrace Restrictions' line"),
     kReadItYourself},
    {"unknown-note.txt", "disabled", false, SipDtrace::unknown,
     "the status 'disabled (Apple Internal).' is none of 'enabled.', 'disabled.', 'enabled "
     "(Custom Configuration).', 'unknown (Custom Configuration).'",
     "unreadable",
     unknown_detail("the status 'disabled (Apple Internal).' is none of 'enabled.', "
                    "'disabled.', 'enabled (Custom Configuration).', 'unknown (Custom "
                    "Configuration).'"),
     kReadItYourself},
    {"unknown-empty.txt", "", false, SipDtrace::unknown, kNoStatusLine, "unreadable",
     unknown_detail(kNoStatusLine), kReadItYourself},
    {"unknown-usage.txt", "", false, SipDtrace::unknown, kNoStatusLine, "unreadable",
     unknown_detail(kNoStatusLine), kReadItYourself},
};

TEST(SipFixtures, EachOutputGivesItsVerdictAndRemediation) {
  for (const Case& want : kCases) {
    SCOPED_TRACE(want.file);
    const std::string text = fixture(want.file);
    const SipStatus s = parse_csrutil_status(text);
    EXPECT_EQ(s.status, want.status);
    EXPECT_EQ(s.custom_configuration, want.custom);
    EXPECT_EQ(s.dtrace, want.dtrace);
    EXPECT_EQ(s.why_unknown, want.why_unknown);

    const Check c = sip_check_for(text);
    EXPECT_EQ(c.name, "sip");
    EXPECT_EQ(c.available, want.reason_code.empty());
    EXPECT_EQ(c.reason_code, want.reason_code);
    EXPECT_EQ(c.detail, want.detail);
    EXPECT_EQ(c.remediation, want.remediation);
    EXPECT_EQ(c.facts["custom_configuration"], want.custom);
  }
}

TEST(SipFixtures, CustomConfigurationsListEveryProtectionInOrder) {
  const SipStatus old = parse_csrutil_status(fixture("custom-10.11-without-dtrace.txt"));
  ASSERT_EQ(old.protections.size(), 6U);
  EXPECT_EQ(old.protections[0].name, "Apple Internal");
  EXPECT_EQ(old.protections[4].name, "DTrace Restrictions");
  EXPECT_EQ(old.protections[4].value, "disabled");

  const SipStatus spaces = parse_csrutil_status(fixture("custom-10.11-all-disabled.txt"));
  EXPECT_EQ(spaces.protections.size(), 6U);

  const SipStatus recent = parse_csrutil_status(fixture("custom-12-dtrace-restricted.txt"));
  ASSERT_EQ(recent.protections.size(), 10U);
  EXPECT_EQ(recent.protections[9].name, "Authenticated Root Requirement");
  const Check c = sip_check_for(fixture("custom-12-dtrace-restricted.txt"));
  EXPECT_EQ(c.facts["protections"].size(), 10U);
  EXPECT_EQ(c.facts["protections"]["Kext Signing"], "enabled");
  EXPECT_EQ(c.facts["dtrace"], "restricted");
}

}  // namespace
}  // namespace jbench::doctor
