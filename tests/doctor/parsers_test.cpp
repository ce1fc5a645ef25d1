// The pure parsers, on the texts the kernel and the tools really write.
#include "jbench/doctor/parsers.h"

#include <gtest/gtest.h>

namespace jbench::doctor {
namespace {

TEST(DoctorParsers, SysctlIntegers) {
  EXPECT_EQ(parse_sysctl_int("2\n"), 2);
  EXPECT_EQ(parse_sysctl_int("-1\n"), -1);
  EXPECT_EQ(parse_sysctl_int(" 0 "), 0);
  EXPECT_FALSE(parse_sysctl_int(""));
  EXPECT_FALSE(parse_sysctl_int("two"));
  EXPECT_FALSE(parse_sysctl_int("2 3"));
}

TEST(DoctorParsers, CapabilityMaskFromStatus) {
  const std::string status =
      "Name:\tcat\nUid:\t1000\t0\t0\t0\nCapInh:\t0000000000000000\n"
      "CapPrm:\t000001ffffffffff\nCapEff:\t000001fffeffffff\n";
  EXPECT_EQ(parse_cap_mask(status, "CapEff"), 0x1fffeffffffULL);
  EXPECT_EQ(parse_cap_mask(status, "CapInh"), 0ULL);
  EXPECT_FALSE(parse_cap_mask(status, "CapAmb"));
  EXPECT_FALSE(parse_cap_mask("CapEff:\tzz\n", "CapEff"));
  EXPECT_EQ(parse_effective_uid(status), 0);  // the second column, not the real uid
  EXPECT_FALSE(parse_effective_uid("Name:\tcat\n"));
}

TEST(DoctorParsers, CapabilityBits) {
  const std::uint64_t bpf_perfmon = (1ULL << kCapBpf) | (1ULL << kCapPerfmon);
  EXPECT_TRUE(has_capability(bpf_perfmon, kCapBpf));
  EXPECT_FALSE(has_capability(bpf_perfmon, kCapSysAdmin));
  EXPECT_EQ(relevant_capability_names(bpf_perfmon), "CAP_BPF, CAP_PERFMON");
  EXPECT_EQ(relevant_capability_names(0), "");
}

TEST(DoctorParsers, LockdownMode) {
  EXPECT_EQ(parse_lockdown("[none] integrity confidentiality\n"), "none");
  EXPECT_EQ(parse_lockdown("none integrity [confidentiality]\n"), "confidentiality");
  EXPECT_EQ(parse_lockdown("none [integrity] confidentiality"), "integrity");
  EXPECT_FALSE(parse_lockdown("none integrity confidentiality"));
  EXPECT_FALSE(parse_lockdown("[bogus]"));
}

TEST(DoctorParsers, ToolVersions) {
  EXPECT_EQ(parse_bpftrace_version("bpftrace v0.17.0\n"), "0.17.0");
  EXPECT_EQ(parse_bpftrace_version("bpftrace v0.20.1-dirty\n"), "0.20.1-dirty");
  EXPECT_FALSE(parse_bpftrace_version("command not found"));
  EXPECT_EQ(parse_strace_version("strace -- version 6.1\nCopyright (c) 1991-2022\n"), "6.1");
  EXPECT_FALSE(parse_strace_version("strace: invalid option"));
}

TEST(DoctorParsers, SystemtapDtraceIsRecognised) {
  EXPECT_TRUE(is_systemtap_dtrace(
      "Usage /usr/bin/dtrace [--help] [-h | -G] [-C [-I<Path>]] -s File.d [-o <File>]\n"
      "Where -h builds a systemtap header file from the .d file\n"));
  EXPECT_FALSE(is_systemtap_dtrace("dtrace: Sun D 1.6.3\n"));
}

// The real outputs are fixtures (sip_fixtures_test.cpp); these are the malformed ones.
TEST(DoctorParsers, SipStatusRefusesToGuess) {
  const std::string line = "System Integrity Protection status: ";
  EXPECT_EQ(parse_csrutil_status(line + "enabled.\n").dtrace, SipDtrace::restricted);
  EXPECT_EQ(parse_csrutil_status(line + "disabled").dtrace, SipDtrace::allowed);

  const SipStatus twice = parse_csrutil_status(line + "enabled.\n" + line + "disabled.\n");
  EXPECT_EQ(twice.dtrace, SipDtrace::unknown);
  EXPECT_EQ(twice.why_unknown, "2 'System Integrity Protection status:' lines, not one");

  const SipStatus word = parse_csrutil_status(line + "maybe.\n");
  EXPECT_EQ(word.dtrace, SipDtrace::unknown);
  EXPECT_EQ(word.status, "maybe");

  const std::string custom = line + "enabled (Custom Configuration).\n\nConfiguration:\n";
  const SipStatus odd = parse_csrutil_status(custom + "\tDTrace Restrictions: partly\n");
  EXPECT_EQ(odd.dtrace, SipDtrace::unknown);
  EXPECT_EQ(odd.why_unknown, "'DTrace Restrictions: partly' is neither enabled nor disabled");

  const SipStatus dup = parse_csrutil_status(custom +
                                             "\tDTrace Restrictions: disabled\n"
                                             "\tDTrace Restrictions: enabled\n");
  EXPECT_EQ(dup.why_unknown, "two 'DTrace Restrictions' lines");

  // Lines after the block's end are not protections.
  const SipStatus after = parse_csrutil_status(custom +
                                               "\tKext Signing: enabled\n\n"
                                               "DTrace Restrictions: disabled\n");
  EXPECT_EQ(after.protections.size(), 1U);
  EXPECT_EQ(after.dtrace, SipDtrace::unknown);

  const SipStatus contradiction =
      parse_csrutil_status(line + "enabled.\nConfiguration:\n\tDTrace Restrictions: disabled\n");
  EXPECT_EQ(contradiction.dtrace, SipDtrace::unknown);
  EXPECT_EQ(contradiction.why_unknown,
            "the status 'enabled.' contradicts 'DTrace Restrictions: disabled'");

  EXPECT_EQ(parse_csrutil_status(line + "unknown.\n").dtrace, SipDtrace::unknown);
  EXPECT_EQ(parse_csrutil_status("csrutil: command not found").why_unknown,
            "no 'System Integrity Protection status:' line");
}

TEST(DoctorParsers, ErrnoNamesInStderr) {
  EXPECT_EQ(errno_name_in("ERROR: Error attaching probe: Operation not permitted"), "EPERM");
  EXPECT_EQ(errno_name_in("strace: attach: ptrace(PTRACE_SEIZE, 1): EACCES"), "EACCES");
  EXPECT_EQ(errno_name_in("all good"), "");
}

TEST(DoctorParsers, ExcerptIsBoundedAndCutAtALine) {
  const std::string text = std::string(600, 'a') + "\n" + std::string(600, 'b');
  const std::string e = excerpt(text, 1024);
  EXPECT_EQ(e, std::string(600, 'a') + "…");
  EXPECT_EQ(excerpt("short"), "short");
}

TEST(DoctorParsers, DisplayCommandQuotesWhatTheShellWouldSplit) {
  EXPECT_EQ(display_command({"/usr/bin/bpftrace", "-e", "BEGIN { exit(); }"}),
            "/usr/bin/bpftrace -e 'BEGIN { exit(); }'");
  EXPECT_EQ(display_command({"a", "it's"}), "a 'it'\\''s'");
}

}  // namespace
}  // namespace jbench::doctor
