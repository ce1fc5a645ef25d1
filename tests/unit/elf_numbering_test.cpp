// The one ELF reader resolves extended section numbering (e_shnum 0 with the count in section 0's
// sh_size, e_shstrndx SHN_XINDEX with the index in its sh_link), so the probes a binary carries
// are the same whichever way its header counts its sections. The test rewrites the header of the
// real bridge library into the extended form, which is the same file to any ELF reader.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "jbench/elf/format.h"
#include "jbench/probes/stapsdt.h"
#include "temp_dir.h"

namespace jbench {
namespace {

using namespace elf;  // the ELF format's names (jbench/elf/format.h)

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The same ELF with its section count and name-table index moved into section 0.
std::string with_extended_numbering(std::string bytes) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  Elf64_Shdr first;
  std::memcpy(&first, bytes.data() + eh.e_shoff, sizeof first);
  first.sh_size = eh.e_shnum;
  first.sh_link = eh.e_shstrndx;
  eh.e_shnum = 0;
  eh.e_shstrndx = SHN_XINDEX;
  std::memcpy(bytes.data(), &eh, sizeof eh);
  std::memcpy(bytes.data() + eh.e_shoff, &first, sizeof first);
  return bytes;
}

TEST(ElfNumbering, probes_are_read_the_same_with_extended_section_numbering) {
  const auto plain_read = read_sdt_notes(JBENCH_BRIDGE_SO);
  ASSERT_TRUE(plain_read) << plain_read.error().message;
  const SdtNotes& plain = *plain_read;
  ASSERT_FALSE(plain.probes.empty());
  ASSERT_TRUE(plain.abi.has_value());

  const test::TempDir dir;
  const std::string extended =
      dir.write("extended.so", with_extended_numbering(read_file(JBENCH_BRIDGE_SO)));
  const auto extended_read = read_sdt_notes(extended);
  ASSERT_TRUE(extended_read) << extended_read.error().message;
  const SdtNotes& read = *extended_read;
  ASSERT_EQ(read.probes.size(), plain.probes.size());
  for (std::size_t i = 0; i < read.probes.size(); ++i) {
    EXPECT_EQ(read.probes[i].provider, plain.probes[i].provider);
    EXPECT_EQ(read.probes[i].name, plain.probes[i].name);
    EXPECT_EQ(read.probes[i].args, plain.probes[i].args);
    EXPECT_EQ(read.probes[i].pc, plain.probes[i].pc);
  }
  ASSERT_TRUE(read.abi.has_value());
  EXPECT_EQ(read.abi->major, plain.abi->major);
}

TEST(ElfNumbering, a_section_table_past_the_end_of_the_file_is_an_error_not_a_crash) {
  std::string bytes = read_file(JBENCH_BRIDGE_SO);
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  eh.e_shoff = bytes.size() - 8;  // the table would run off the end
  std::memcpy(bytes.data(), &eh, sizeof eh);
  const test::TempDir dir;
  const auto read = read_sdt_notes(dir.write("truncated.so", bytes));
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().message.find("past the end"), std::string::npos) << read.error().message;
}

}  // namespace
}  // namespace jbench
