// The bridge's ABI contract (manifests/bridge-abi-v1.json) and the check of a binary's probes
// against it: the major version must match, every contract probe must be present with its
// argument layout, and every probe must have a semaphore.
//
//   auto contract = load_probe_contract(bridge_contract_json(), error);
//   auto findings = check_probes(*contract, read_sdt_notes(path));
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/probes/stapsdt.h"

namespace jbench {

struct ContractProbe {
  std::string name;
  std::vector<int> arg_sizes;          // bytes, negative = signed, as stapsdt writes them
  std::vector<std::string> arg_types;  // C types: "uint64_t", "const char *"
};

struct ProbeContract {
  std::string provider;
  AbiVersion abi;
  std::vector<ContractProbe> probes;
};

struct ProbeFinding {
  std::string code;  // "probes.*", stable (docs/bridge.md)
  std::string message;
};

// manifests/bridge-abi-v1.json as compiled into jbench.
const std::string& bridge_contract_json();

// Parses a contract document; an input error saying why if it is not one.
Result<ProbeContract> load_probe_contract(const std::string& json_text);

// What keeps `notes` from carrying `contract`'s probes. Empty: the binary honours the contract.
std::vector<ProbeFinding> check_probes(const ProbeContract& contract, const SdtNotes& notes);

}  // namespace jbench
