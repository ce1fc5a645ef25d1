// The ELF reader's failures are values with their kind and errno: a file that cannot be opened,
// a range past the end, a load over the bound, a file that is not (or not wholly) ELF. The ELF
// file read is the real bridge library.
#include <gtest/gtest.h>

#include <cerrno>

#include "jbench/elf/reader.h"
#include "temp_dir.h"
#include "text_file.h"

namespace jbench {
namespace {

TEST(ElfReader, a_missing_file_is_an_input_error_with_its_errno) {
  const test::TempDir dir;
  const auto file = elf::OpenFile::open(dir.path() + "/absent.so");
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().sys_errno, ENOENT);
  EXPECT_EQ(file.error().kind, ErrorKind::input);
  EXPECT_NE(file.error().message.find("absent.so"), std::string::npos) << file.error().message;
}

TEST(ElfReader, a_directory_is_not_a_regular_file) {
  const test::TempDir dir;
  const auto file = elf::OpenFile::open(dir.path());
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().message, dir.path() + " is not a regular file");
}

TEST(ElfReader, the_real_library_has_a_header_and_ranges_past_its_end_are_refused) {
  const auto file = elf::OpenFile::open(JBENCH_BRIDGE_SO);
  ASSERT_TRUE(file) << file.error().message;
  const elf::Reader& r = (*file)->reader();
  EXPECT_TRUE(elf::has_elf_magic(r));
  const auto header = elf::read_elf_header(r);
  ASSERT_TRUE(header) << header.error().message;
  EXPECT_EQ(header->e_ehsize, sizeof(Elf64_Ehdr));

  char byte = 0;
  const Status past = r.read(r.size(), &byte, 1, "a byte");
  ASSERT_FALSE(past);
  EXPECT_EQ(past.error().kind, ErrorKind::input);
  EXPECT_NE(past.error().message.find("extends past the end of the file"), std::string::npos);
  const auto too_big = r.load(0, elf::kMaxLoadBytes + 1, "a giant section");
  ASSERT_FALSE(too_big);
  EXPECT_NE(too_big.error().message.find("more than the"), std::string::npos);
  const auto first = r.load(0, 4, "the magic");
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->size(), 4u);
}

TEST(ElfReader, a_text_file_has_no_magic_and_a_cut_elf_file_has_magic_but_no_header) {
  const test::TempDir dir;
  const auto text = elf::OpenFile::open(dir.write("notes.txt", "plain text, no ELF here\n"));
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_FALSE(elf::has_elf_magic((*text)->reader()));
  const auto not_elf = elf::read_elf_header((*text)->reader());
  ASSERT_FALSE(not_elf);
  EXPECT_NE(not_elf.error().message.find("no ELF magic"), std::string::npos);

  const std::string cut = test::read_text(JBENCH_BRIDGE_SO).substr(0, 20);
  const auto truncated = elf::OpenFile::open(dir.write("cut.so", cut));
  ASSERT_TRUE(truncated) << truncated.error().message;
  EXPECT_TRUE(elf::has_elf_magic((*truncated)->reader()));
  const auto header = elf::read_elf_header((*truncated)->reader());
  ASSERT_FALSE(header);
  EXPECT_NE(header.error().message.find("is truncated: 20 bytes"), std::string::npos)
      << header.error().message;
}

}  // namespace
}  // namespace jbench
