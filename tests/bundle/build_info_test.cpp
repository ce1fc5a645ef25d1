#include "jbench/provenance/build_info.h"

#include <gtest/gtest.h>

#include <regex>

namespace jbench {
namespace {

TEST(BuildInfo, records_the_toolchain_and_library_versions) {
  const auto b = build_info();
  EXPECT_EQ(b.at("jbench_version"), "0.1.0");
  EXPECT_GE(b.at("cplusplus").get<long>(), 202002L);
  EXPECT_FALSE(b.at("compiler").at("id").get<std::string>().empty());
  EXPECT_FALSE(b.at("compiler").at("__VERSION__").get<std::string>().empty());
  EXPECT_NE(b.at("build_type"), "");

  const std::string revision = b.at("source").at("revision");
  EXPECT_TRUE(std::regex_match(revision, std::regex("[0-9a-f]{40}|unknown"))) << revision;
  const auto& dirty = b.at("source").at("dirty");
  EXPECT_TRUE(dirty.is_boolean() || dirty == "unknown") << dirty;

  const auto& libs = b.at("libraries");
  EXPECT_TRUE(std::regex_match(libs.at("sqlite").at("compiled").get<std::string>(),
                               std::regex(R"(3\.\d+\.\d+)")));
  EXPECT_FALSE(libs.at("sqlite").at("runtime").get<std::string>().empty());
  EXPECT_TRUE(std::regex_match(libs.at("boost").get<std::string>(), std::regex(R"(1_\d+(_\d+)?)")));
  EXPECT_TRUE(
      std::regex_match(libs.at("nlohmann_json").get<std::string>(), std::regex(R"(3\.\d+\.\d+)")));
  EXPECT_TRUE(std::regex_match(libs.at("fmt").get<std::string>(), std::regex(R"(\d+\.\d+\.\d+)")));
  EXPECT_NE(libs.at("openssl").at("runtime").get<std::string>().find("OpenSSL"), std::string::npos);
  EXPECT_TRUE(
      std::regex_match(libs.at("yaml_cpp").get<std::string>(), std::regex(R"(0\.\d+\.\d+)")))
      << libs.at("yaml_cpp");
}

}  // namespace
}  // namespace jbench
