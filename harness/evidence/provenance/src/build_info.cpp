#include "jbench/provenance/build_info.h"

#include <fmt/core.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <sqlite3.h>

#include <boost/version.hpp>
#include <string>

#include "jbench/common/platform_choice.h"
#include "jbench_build_flags.h"      // generated at configure time
#include "jbench_source_revision.h"  // generated at every build

#if JBENCH_PLATFORM_LINUX
#include <gnu/libc-version.h>
#endif

#ifndef JBENCH_VERSION
#define JBENCH_VERSION "unknown"
#endif
#ifndef JBENCH_BUILD_TYPE
#define JBENCH_BUILD_TYPE "unknown"
#endif
#ifndef JBENCH_YAML_CPP_VERSION
#define JBENCH_YAML_CPP_VERSION ""
#endif

namespace jbench {
namespace {

nlohmann::json or_unknown(const std::string& value) {
  return value.empty() ? nlohmann::json("unknown") : nlohmann::json(value);
}

}  // namespace

nlohmann::json build_info() {
  const std::string dirty = JBENCH_SOURCE_DIRTY;
  nlohmann::json dirty_json = dirty == "true"    ? nlohmann::json(true)
                              : dirty == "false" ? nlohmann::json(false)
                                                 : nlohmann::json("unknown");
  nlohmann::json j;
  j["jbench_version"] = JBENCH_VERSION;
  j["source"] = {
      {"revision", JBENCH_SOURCE_REVISION}, {"dirty", dirty_json}, {"recorded_at", "build"}};
  j["build_type"] = or_unknown(JBENCH_BUILD_TYPE);
  j["compiler"] = {{"id", JBENCH_CXX_COMPILER_ID},
                   {"version", JBENCH_CXX_COMPILER_VERSION},
                   {"path", JBENCH_CXX_COMPILER},
                   {"__VERSION__", __VERSION__}};
  j["c_compiler"] = {{"id", JBENCH_C_COMPILER_ID},
                     {"version", JBENCH_C_COMPILER_VERSION},
                     {"path", JBENCH_C_COMPILER}};
  // What every translation unit is compiled with, besides its include paths and definitions.
  j["flags"] = {{"cxx", JBENCH_CXX_FLAGS},
                {"cxx_build_type", JBENCH_CXX_BUILD_TYPE_FLAGS},
                {"c", JBENCH_C_FLAGS},
                {"c_build_type", JBENCH_C_BUILD_TYPE_FLAGS},
                {"cxx_standard", JBENCH_CXX_STANDARD},
                {"warnings", JBENCH_WARNING_FLAGS},
                {"exe_linker", JBENCH_EXE_LINKER_FLAGS},
                {"shared_linker", JBENCH_SHARED_LINKER_FLAGS},
                {"compiler_launcher", JBENCH_COMPILER_LAUNCHER}};
  j["cplusplus"] = static_cast<long>(__cplusplus);
  j["libraries"] = {
      {"sqlite", {{"compiled", SQLITE_VERSION}, {"runtime", sqlite3_libversion()}}},
      {"boost", BOOST_LIB_VERSION},
      {"nlohmann_json", fmt::format("{}.{}.{}", NLOHMANN_JSON_VERSION_MAJOR,
                                    NLOHMANN_JSON_VERSION_MINOR, NLOHMANN_JSON_VERSION_PATCH)},
      {"fmt",
       fmt::format("{}.{}.{}", FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100)},
      {"openssl",
       {{"compiled", OPENSSL_VERSION_TEXT}, {"runtime", OpenSSL_version(OPENSSL_VERSION)}}},
      {"yaml_cpp", or_unknown(JBENCH_YAML_CPP_VERSION)},
  };
#if JBENCH_PLATFORM_LINUX
  // The C library of Linux builds; other systems' C library comes with the system's release,
  // which the host fingerprint records.
  j["libraries"]["glibc"] = {{"compiled", fmt::format("{}.{}", __GLIBC__, __GLIBC_MINOR__)},
                             {"runtime", gnu_get_libc_version()}};
#endif
  return j;
}

nlohmann::json jbench_identity() {
  const nlohmann::json info = build_info();
  return {{"version", info.value("jbench_version", "unknown")},
          {"source", info.value("source", nlohmann::json::object())}};
}

}  // namespace jbench
