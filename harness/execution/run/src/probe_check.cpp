#include "probe_check.h"

#include <fmt/format.h>

#include <algorithm>

#include "jbench/elf/reader.h"
#include "jbench/probes/contract.h"
#include "jbench/probes/stapsdt.h"

namespace jbench::run {
namespace {

bool is_elf(const std::string& path) {
  const auto file = elf::OpenFile::open(path);
  return file && elf::has_elf_magic((*file)->reader());
}

Error refused(std::string why) { return {std::move(why), 0, ErrorKind::input}; }

}  // namespace

Status check_probe_contract(const std::string& worker, const std::string& bridge_library) {
  const std::string target = is_elf(worker) ? worker : bridge_library;
  const auto contract = load_probe_contract(bridge_contract_json());
  if (!contract) {
    return refused(
        fmt::format("the bridge's ABI contract cannot be read: {}", contract.error().message));
  }
  const auto read = read_sdt_notes(target);
  if (!read) return refused(fmt::format("{}: {}", target, read.error().message));
  const SdtNotes& notes = *read;
  // Neither the ABI note nor a single probe: the bridge is not in the binary at all, which is
  // what a build with the bridge compiled out leaves. Say which option brings it back.
  const bool carries_bridge =
      notes.abi || std::any_of(notes.probes.begin(), notes.probes.end(),
                               [&](const SdtProbe& p) { return p.provider == contract->provider; });
  if (!carries_bridge) {
    return refused(fmt::format(
        "{} carries no trace bridge (no jbench ABI note, no jbench probes): it was built with "
        "-DJBENCH_TRACING=OFF, or without the bridge. The traced modes (no-consumer, light, "
        "full) need a worker built with -DJBENCH_TRACING=ON (the default); to run this worker, "
        "keep only the baseline (--only trace=baseline)",
        target));
  }
  const auto findings = check_probes(*contract, notes);
  if (findings.empty()) return {};
  std::string list;
  for (std::size_t i = 0; i < findings.size() && i < 5; ++i) {
    list += fmt::format("\n  {}: {}", findings[i].code, findings[i].message);
  }
  return refused(fmt::format(
      "{} does not carry the trace bridge's probes as ABI {}.x requires (`jbench probes {}`):{}",
      target, contract->abi.major, target, list));
}

}  // namespace jbench::run
