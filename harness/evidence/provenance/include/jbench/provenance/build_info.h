// How this jbench was built, for the bundle's provenance/:
//
//   {"jbench_version": "0.1.0",
//    "source": {"revision": "<git sha>"|"unknown", "dirty": true|false|"unknown",
//               "recorded_at": "build"},
//    "build_type": "RelWithDebInfo",
//    "compiler": {"id": "GNU", "version": "12.2.0", "path": "/usr/bin/c++", "__VERSION__":
//    "12.2.0"}, "c_compiler": {"id": "GNU", "version": "12.2.0", "path": "/usr/bin/cc"}, "flags":
//    {"cxx": "", "cxx_build_type": "-O2 -g -DNDEBUG", "c": "", "c_build_type": "...",
//              "cxx_standard": "20", "warnings": "-Wall -Wextra ...", "exe_linker": "",
//              "shared_linker": "", "compiler_launcher": "ccache"},
//    "cplusplus": 202002,
//    "libraries": {"sqlite": {"compiled": "3.40.1", "runtime": "3.40.1"},
//                  "boost": "1_74", "nlohmann_json": "3.11.2", "fmt": "9.1.0",
//                  "openssl": {"compiled": "...", "runtime": "OpenSSL 3.0.x ..."},
//                  "yaml_cpp": "0.7.0", "glibc": {"compiled": "2.36", "runtime": "2.36"}}}
//
// The revision and the dirty flag describe the source tree when this binary was last built (they
// are read at every build: harness/evidence/provenance/source_revision.cmake). Outside a git
// checkout, or without git, both are "unknown". The flags are those CMake passes to every compile
// command (compile_commands.json adds only include paths and definitions per target).
#pragma once

#include <nlohmann/json.hpp>

namespace jbench {

nlohmann::json build_info();

// What a manifest says about the jbench that wrote it: {"version", "source"} of build_info().
nlohmann::json jbench_identity();

}  // namespace jbench
