// Before any traced run: the target must carry the bridge's probes as the ABI contract
// (manifests/bridge-abi-v1.json) says, or its events would not mean what jbench reads into them.
// Private to jbench::run.
#pragma once

#include <string>

#include "jbench/common/result.h"

namespace jbench::run {

// The worker executable is checked when it is an ELF file; a launcher script (the Chez worker)
// is checked through the bridge library it loads, `bridge_library`. An input error says why the
// target does not honour the contract.
Status check_probe_contract(const std::string& worker, const std::string& bridge_library);

}  // namespace jbench::run
