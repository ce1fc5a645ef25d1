// The symbol maps of real binaries against binutils' nm, the oracle: the same symbols at the same
// addresses with the same letters. And a malformed table is an error, not a crash.
#include "jbench/provenance/elf_symbols.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "run_process.h"
#include "temp_dir.h"
#include "test_files.h"

namespace jbench {
namespace {

const std::string kNm = test::find_program({"/usr/bin/nm", "/bin/nm"});

using Entry = std::tuple<std::uint64_t, char, std::string>;

// `nm --defined-only` (or -D for the dynamic table): address, letter, name.
std::set<Entry> nm_symbols(const std::string& path, bool dynamic) {
  std::vector<std::string> argv = {kNm, "--defined-only"};
  if (dynamic) argv.push_back("-D");
  argv.push_back(path);
  const auto r = test::run_process(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::set<Entry> out;
  std::istringstream in(r.out);
  std::string address, letter, name;
  while (in >> address >> letter >> name) {
    // nm -D names versioned symbols "name@VERSION" / "name@@VERSION"; the map keeps bare names.
    if (dynamic) name = name.substr(0, name.find('@'));
    out.emplace(std::stoull(address, nullptr, 16), letter[0], name);
  }
  return out;
}

std::set<Entry> map_symbols(const SymbolMap& map) {
  std::set<Entry> out;
  for (const auto& s : map.symbols) out.emplace(s.address, s.type, s.name);
  return out;
}

TEST(ElfSymbols, the_symtab_of_this_test_matches_nm) {
  if (kNm.empty()) GTEST_SKIP() << "nm (binutils) is not installed: no oracle";
  const std::string self = std::filesystem::read_symlink("/proc/self/exe");
  const SymbolMap map = read_symbol_map(self);
  EXPECT_EQ(map.error, "");
  EXPECT_EQ(map.table, ".symtab");
  EXPECT_GT(map.symbols.size(), 100u);
  EXPECT_EQ(map_symbols(map), nm_symbols(self, false));
}

TEST(ElfSymbols, a_stripped_library_gives_its_dynamic_symbols_as_nm_D_does) {
  if (kNm.empty()) GTEST_SKIP() << "nm (binutils) is not installed: no oracle";
  std::string libc;
  for (const char* p : {"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6",
                        "/lib/aarch64-linux-gnu/libc.so.6"}) {
    if (std::filesystem::exists(p)) libc = p;
  }
  if (libc.empty()) GTEST_SKIP() << "no libc.so.6 where Debian puts it";
  const SymbolMap map = read_symbol_map(libc);
  EXPECT_EQ(map.error, "");
  ASSERT_EQ(map.table, ".dynsym");
  EXPECT_EQ(map_symbols(map), nm_symbols(libc, true));
}

TEST(ElfSymbols, the_text_map_is_sorted_by_address_one_symbol_a_line) {
  const SymbolMap map = read_symbol_map(std::filesystem::read_symlink("/proc/self/exe"));
  const std::string text = symbol_map_text(map);
  std::istringstream in(text);
  std::string line;
  std::uint64_t previous = 0;
  std::size_t lines = 0;
  while (std::getline(in, line)) {
    ASSERT_GE(line.size(), 21u) << line;
    const std::uint64_t address = std::stoull(line.substr(0, 16), nullptr, 16);
    EXPECT_GE(address, previous) << line;
    previous = address;
    ++lines;
  }
  EXPECT_EQ(lines, map.symbols.size());
  EXPECT_NE(text.find(" T main\n"), std::string::npos);
}

TEST(ElfSymbols, a_truncated_file_is_an_error_not_a_crash) {
  test::TempDir dir;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe");
  std::ifstream in(self, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cut = dir.path() + "/cut";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() * 3 / 4);
  const SymbolMap map = read_symbol_map(cut);
  EXPECT_NE(map.error, "");
  const SymbolMap none = read_symbol_map(dir.path() + "/absent");
  EXPECT_NE(none.error.find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace jbench
