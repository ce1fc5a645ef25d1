#include "jbench/provenance/build_info.h"

#include <fmt/core.h>
#include <gnu/libc-version.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <sqlite3.h>

#include <boost/version.hpp>
#include <string>

#ifndef JBENCH_VERSION
#define JBENCH_VERSION "unknown"
#endif
#ifndef JBENCH_SOURCE_REVISION
#define JBENCH_SOURCE_REVISION "unknown"
#endif
#ifndef JBENCH_SOURCE_DIRTY
#define JBENCH_SOURCE_DIRTY "unknown"
#endif
#ifndef JBENCH_BUILD_TYPE
#define JBENCH_BUILD_TYPE "unknown"
#endif
#ifndef JBENCH_CXX_COMPILER_ID
#define JBENCH_CXX_COMPILER_ID "unknown"
#endif
#ifndef JBENCH_CXX_COMPILER_VERSION
#define JBENCH_CXX_COMPILER_VERSION "unknown"
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
  j["source"] = {{"revision", JBENCH_SOURCE_REVISION},
                 {"dirty", dirty_json},
                 {"recorded_at", "cmake configure"}};
  j["build_type"] = or_unknown(JBENCH_BUILD_TYPE);
  j["compiler"] = {{"id", JBENCH_CXX_COMPILER_ID},
                   {"version", JBENCH_CXX_COMPILER_VERSION},
                   {"__VERSION__", __VERSION__}};
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
      {"glibc",
       {{"compiled", fmt::format("{}.{}", __GLIBC__, __GLIBC_MINOR__)},
        {"runtime", gnu_get_libc_version()}}},
  };
  return j;
}

}  // namespace jbench
