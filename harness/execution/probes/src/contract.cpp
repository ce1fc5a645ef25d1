#include "jbench/probes/contract.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

namespace jbench {

Result<ProbeContract> load_probe_contract(const std::string& json_text) {
  const auto doc = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return Error{"the contract is not a JSON object", 0, ErrorKind::input};
  }
  try {
    ProbeContract c;
    c.provider = doc.at("provider").get<std::string>();
    c.abi.major = doc.at("abi_version").at("major").get<std::uint32_t>();
    c.abi.minor = doc.at("abi_version").at("minor").get<std::uint32_t>();
    for (const auto& p : doc.at("probes")) {
      ContractProbe probe;
      probe.name = p.at("name").get<std::string>();
      for (const auto& a : p.at("args")) {
        probe.arg_sizes.push_back(a.at("size").get<int>());
        probe.arg_types.push_back(a.value("type", std::string()));
      }
      c.probes.push_back(std::move(probe));
    }
    return c;
  } catch (const nlohmann::json::exception& e) {
    return Error{fmt::format("the contract lacks a field or has the wrong type: {}", e.what()), 0,
                 ErrorKind::input};
  }
}

std::vector<ProbeFinding> check_probes(const ProbeContract& contract, const SdtNotes& notes) {
  std::vector<ProbeFinding> findings;
  if (!notes.abi) {
    findings.push_back({"probes.no_abi_version",
                        "the binary carries no jbench ABI note (.note.jbench.abi): it was not "
                        "linked with the bridge (a -DJBENCH_TRACING=OFF build compiles it "
                        "out), or the note was removed"});
  } else if (notes.abi->major != contract.abi.major) {
    findings.push_back(
        {"probes.abi_major",
         fmt::format("the binary was built against bridge ABI {}.{}, the contract is {}.{}: a "
                     "different major version is a different contract",
                     notes.abi->major, notes.abi->minor, contract.abi.major, contract.abi.minor)});
  }
  // A probe may have several sites (one per inlined call); every site must match the contract.
  std::map<std::string, std::vector<const SdtProbe*>> sites;
  for (const SdtProbe& p : notes.probes) {
    if (p.provider == contract.provider) sites[p.name].push_back(&p);
  }
  for (const ContractProbe& want : contract.probes) {
    const auto it = sites.find(want.name);
    if (it == sites.end()) {
      findings.push_back({"probes.missing", fmt::format("probe {}:{} is not in the binary",
                                                        contract.provider, want.name)});
      continue;
    }
    for (const SdtProbe* site : it->second) {
      const auto sizes = sdt_arg_sizes(site->args);
      if (!sizes || *sizes != want.arg_sizes) {
        findings.push_back(
            {"probes.arg_layout",
             fmt::format("probe {}:{} at 0x{:x} has arguments \"{}\"; the contract wants {} "
                         "argument(s) of sizes [{}]",
                         contract.provider, want.name, site->pc, site->args, want.arg_sizes.size(),
                         fmt::join(want.arg_sizes, ", "))});
      }
      if (site->semaphore == 0) {
        findings.push_back(
            {"probes.no_semaphore",
             fmt::format("probe {}:{} at 0x{:x} has no semaphore, so its is-enabled test never "
                         "turns on: include the dtrace-generated header before <sys/sdt.h> and "
                         "link the dtrace -G object",
                         contract.provider, want.name, site->pc)});
      }
    }
  }
  return findings;
}

}  // namespace jbench
