// How this jbench was built, for the bundle's provenance/:
//
//   {"jbench_version": "0.1.0",
//    "source": {"revision": "<git sha>"|"unknown", "dirty": true|false|"unknown",
//               "recorded_at": "cmake configure"},
//    "build_type": "RelWithDebInfo",
//    "compiler": {"id": "GNU", "version": "12.2.0", "__VERSION__": "12.2.0"},
//    "cplusplus": 202002,
//    "libraries": {"sqlite": {"compiled": "3.40.1", "runtime": "3.40.1"},
//                  "boost": "1_74", "nlohmann_json": "3.11.2", "fmt": "9.1.0",
//                  "openssl": {"compiled": "...", "runtime": "OpenSSL 3.0.x ..."},
//                  "yaml_cpp": "0.7.0", "glibc": {"compiled": "2.36", "runtime": "2.36"}}}
//
// The revision and the dirty flag describe the source tree when CMake last configured the build
// (CMake re-runs when HEAD moves; an edit without a re-configure is not seen). Outside a git
// checkout both are "unknown".
#pragma once

#include <nlohmann/json.hpp>

namespace jbench {

nlohmann::json build_info();

}  // namespace jbench
