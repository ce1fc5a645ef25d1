// Reading the USDT probes a binary carries: the ELF `.note.stapsdt` notes that <sys/sdt.h>
// emits (one per probe site) and the bridge's ABI note (`.note.jbench.abi`). Notes survive
// strip and static linking, so this works on any executable or shared library, without running
// it.
//
//   Result<SdtNotes> r = read_sdt_notes("build/lib/libjbench_bridge.so");
//   if (!r) fail(r.error().message);
//   for (const SdtProbe& p : r.probes) print(p.provider, p.name, p.args);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jbench/common/result.h"

namespace jbench {

// One probe site, as its stapsdt note describes it. Addresses are as linked (not relocated).
struct SdtProbe {
  std::string provider;
  std::string name;
  std::string args;  // e.g. "8@%rbx -8@%rsi": size (negative = signed) @ location, per argument
  std::uint64_t pc = 0;
  std::uint64_t base = 0;       // address of .stapsdt.base, for prelink adjustment
  std::uint64_t semaphore = 0;  // 0 = no semaphore: the probe's is-enabled test never turns on
};

struct AbiVersion {
  std::uint32_t major = 0;
  std::uint32_t minor = 0;
};

struct SdtNotes {
  std::vector<SdtProbe> probes;   // in file order
  std::optional<AbiVersion> abi;  // from the "jbench" ABI note, if the binary has one
};

// Reads every SHT_NOTE section of the 64-bit little-endian ELF file at `path`. Every offset and
// length is checked against the file's size; a malformed note is an input error, not a crash,
// and a file that cannot be read keeps its errno.
Result<SdtNotes> read_sdt_notes(const std::string& path);

// The argument sizes of a stapsdt argument string ("8@%rbx -4@%edi" -> {8, -4}); nullopt if the
// string does not have that form.
std::optional<std::vector<int>> sdt_arg_sizes(const std::string& args);

}  // namespace jbench
