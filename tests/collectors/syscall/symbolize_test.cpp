// Naming sampled addresses: this test binary's own mappings and symbols, as the collector reads a
// worker's. A function's address is named by that function; an address past every mapping keeps
// its number; a library's address without a symbol keeps its file and offset. Nothing guessed.
#include "symbolize.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>

namespace jbench::collectors::syscall_detail {
namespace {

[[gnu::noinline]] int a_function_to_find(int x) { return x * 3 + 1; }

TEST(Symbolize, AnAddressInsideAFunctionOfThisBinaryIsNamedByIt) {
  const auto maps = read_executable_maps(getpid());
  ASSERT_FALSE(maps.empty());
  Symbolizer s;
  const auto at = reinterpret_cast<std::uintptr_t>(&a_function_to_find) + 1;  // inside it
  const Frame f = s.frame(at, maps, false);
  EXPECT_NE(f.function.find("a_function_to_find"), std::string::npos) << f.text();
  EXPECT_EQ(f.module, "syscall_collector_unit_tests") << f.text();
  // A return address is looked up one byte back: the call's own instruction.
  const Frame caller = s.frame(at + 1, maps, true);
  EXPECT_EQ(caller.function, f.function);
}

TEST(Symbolize, AnAddressOutsideEveryMappingKeepsItsNumber) {
  Symbolizer s;
  const Frame f = s.frame(0x10, read_executable_maps(getpid()), false);
  EXPECT_TRUE(f.function.empty());
  EXPECT_TRUE(f.module.empty());
  EXPECT_EQ(f.text(), "0x10");
}

TEST(Symbolize, AMappingWhoseFileHasNoSymbolThereKeepsFileAndOffset) {
  // A made-up mapping of a file that is not ELF: no symbol can cover any address in it.
  const std::vector<Mapping> maps = {{0x1000, 0x2000, 0x400, "/proc/self/status"}};
  Symbolizer s;
  const Frame f = s.frame(0x1234, maps, false);
  EXPECT_TRUE(f.function.empty());
  EXPECT_EQ(f.module, "status");
  EXPECT_EQ(f.text(), "status+0x634");
}

}  // namespace
}  // namespace jbench::collectors::syscall_detail
