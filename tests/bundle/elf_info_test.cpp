#include "jbench/provenance/elf_info.h"

#include <elf.h>
#include <gtest/gtest.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <regex>

#include "jbench/provenance/binaries.h"
#include "run_process.h"
#include "temp_dir.h"
#include "test_files.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;

const std::string kReadelf = test::find_program({"/usr/bin/readelf", "/bin/readelf"});

// The build-id `readelf -n` reports, "" when it reports none.
std::string readelf_build_id(const std::string& path) {
  auto r = test::run_process({kReadelf, "-n", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::smatch m;
  static const std::regex kBuildId("Build ID: ([0-9a-f]+)");
  return std::regex_search(r.out, m, kBuildId) ? m[1].str() : "";
}

std::string readelf_sections(const std::string& path) {
  auto r = test::run_process({kReadelf, "-S", "-W", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

// A minimal x86-64 ELF executable header with one PT_NOTE segment holding a GNU build-id and no
// section headers, as the bytes of a file.
std::string tiny_elf_with_build_id(const std::string& id_bytes) {
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_EXEC;
  eh.e_machine = EM_X86_64;
  eh.e_version = EV_CURRENT;
  eh.e_phoff = sizeof(Elf64_Ehdr);
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_phentsize = sizeof(Elf64_Phdr);
  eh.e_phnum = 1;
  Elf64_Nhdr nh{};
  nh.n_namesz = 4;
  nh.n_descsz = static_cast<Elf64_Word>(id_bytes.size());
  nh.n_type = NT_GNU_BUILD_ID;
  std::string note(reinterpret_cast<const char*>(&nh), sizeof nh);
  note += std::string("GNU\0", 4) + id_bytes;
  while (note.size() % 4 != 0) note += '\0';
  Elf64_Phdr ph{};
  ph.p_type = PT_NOTE;
  ph.p_offset = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
  ph.p_filesz = note.size();
  ph.p_align = 4;
  return std::string(reinterpret_cast<const char*>(&eh), sizeof eh) +
         std::string(reinterpret_cast<const char*>(&ph), sizeof ph) + note;
}

TEST(ElfInfo, the_test_binary_matches_readelf) {
  if (kReadelf.empty()) GTEST_SKIP() << "readelf (binutils) is not installed";
  const std::string self = test::self_exe();
  const ElfInfo info = read_elf_info(self);
  EXPECT_TRUE(info.error.empty()) << info.error;
  EXPECT_TRUE(info.is_elf);
  EXPECT_TRUE(info.type == "dyn" || info.type == "exec") << info.type;
  utsname u{};
  ASSERT_EQ(uname(&u), 0);
  EXPECT_EQ(info.machine, std::string(u.machine));
  EXPECT_EQ(info.build_id, readelf_build_id(self));
  EXPECT_FALSE(info.build_id.empty()) << "Debian's toolchain links with --build-id";
  const std::string sections = readelf_sections(self);
  EXPECT_EQ(info.has_symtab, sections.find(" .symtab ") != std::string::npos);
  EXPECT_EQ(info.has_debug_info, sections.find(" .debug_info ") != std::string::npos);
}

TEST(ElfInfo, libc_as_mapped_into_this_process) {
  const MappedFiles mapped = mapped_files(getpid());
  ASSERT_TRUE(mapped.error.empty()) << mapped.error;
  std::string libc;
  for (const auto& f : mapped.libraries) {
    const std::string base = fs::path(f.path).filename().string();
    if (base.rfind("libc.so", 0) == 0 || base.rfind("libc-", 0) == 0) libc = f.path;
  }
  ASSERT_FALSE(libc.empty()) << "no libc among the executable mappings";
  const ElfInfo info = read_elf_info(libc);
  EXPECT_TRUE(info.error.empty()) << info.error;
  EXPECT_TRUE(info.is_elf);
  EXPECT_EQ(info.type, "dyn");
  EXPECT_FALSE(info.build_id.empty());
  if (!kReadelf.empty()) {
    EXPECT_EQ(info.build_id, readelf_build_id(libc));
  }
}

TEST(ElfInfo, truncated_copies_are_errors_not_crashes) {
  test::TempDir tmp;
  const std::string original = test::read_file(test::self_exe());
  ASSERT_GT(original.size(), 8192u);
  for (const std::size_t size : {std::size_t{0}, std::size_t{3}, std::size_t{4}, std::size_t{16},
                                 std::size_t{63}, std::size_t{64}, std::size_t{200},
                                 std::size_t{4096}, original.size() / 2, original.size() - 1}) {
    const std::string path = tmp.write("truncated", original.substr(0, size));
    const ElfInfo info = read_elf_info(path);
    EXPECT_FALSE(info.error.empty()) << "no error for a copy truncated to " << size << " bytes";
    EXPECT_EQ(info.is_elf, size >= 4) << size;
  }
}

TEST(ElfInfo, a_text_file_and_a_missing_file_are_errors) {
  test::TempDir tmp;
  const ElfInfo text = read_elf_info(tmp.write("notes.txt", "just some text, not an ELF file\n"));
  EXPECT_FALSE(text.is_elf);
  EXPECT_NE(text.error.find("not an ELF file"), std::string::npos) << text.error;
  EXPECT_TRUE(text.build_id.empty());

  const ElfInfo missing = read_elf_info(tmp.path() + "/nope");
  EXPECT_FALSE(missing.is_elf);
  EXPECT_NE(missing.error.find("cannot open"), std::string::npos) << missing.error;

  const ElfInfo dir = read_elf_info(tmp.path());
  EXPECT_FALSE(dir.error.empty());
}

TEST(ElfInfo, reads_a_build_id_from_a_note_segment_and_finds_the_separate_debug_file) {
  test::TempDir tmp;
  const std::string id(
      "\xab\xcd\xef\x01\x23\x45\x67\x89\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99"
      "\xaa\xbb",
      20);
  const std::string path = tmp.write("tiny", tiny_elf_with_build_id(id));
  ElfInfo info = read_elf_info(path, tmp.path() + "/root");
  EXPECT_TRUE(info.error.empty()) << info.error;
  EXPECT_EQ(info.type, "exec");
  EXPECT_EQ(info.machine, "x86_64");
  EXPECT_EQ(info.build_id, "abcdef012345678900112233445566778899aabb");
  EXPECT_FALSE(info.has_symtab);
  EXPECT_FALSE(info.has_debug_info);
  EXPECT_FALSE(info.separate_debug_file);

  const std::string debug_dir = tmp.path() + "/root/usr/lib/debug/.build-id/ab";
  fs::create_directories(debug_dir);
  test::write_bytes(debug_dir + "/cdef012345678900112233445566778899aabb.debug", "x");
  info = read_elf_info(path, tmp.path() + "/root");
  ASSERT_TRUE(info.separate_debug_file);
  EXPECT_EQ(*info.separate_debug_file, debug_dir + "/cdef012345678900112233445566778899aabb.debug");
}

TEST(ElfInfo, hostile_headers_are_errors) {
  test::TempDir tmp;
  const std::string good = tiny_elf_with_build_id(std::string(20, '\x5a'));
  const auto with = [&](auto mutate) {
    std::string bytes = good;
    auto* eh = reinterpret_cast<Elf64_Ehdr*>(bytes.data());
    auto* ph = reinterpret_cast<Elf64_Phdr*>(bytes.data() + sizeof(Elf64_Ehdr));
    auto* nh = reinterpret_cast<Elf64_Nhdr*>(bytes.data() + ph->p_offset);
    mutate(*eh, *ph, *nh);
    return read_elf_info(tmp.write("hostile", bytes));
  };
  // Section headers far past the end, and a count that would overflow offset + count * size.
  auto far = with([](Elf64_Ehdr& eh, Elf64_Phdr&, Elf64_Nhdr&) {
    eh.e_shoff = 0xfffffffffffff000ull;
    eh.e_shnum = 0xffff;
    eh.e_shentsize = sizeof(Elf64_Shdr);
  });
  EXPECT_NE(far.error.find("past the end"), std::string::npos) << far.error;
  auto many_ph = with([](Elf64_Ehdr& eh, Elf64_Phdr&, Elf64_Nhdr&) { eh.e_phnum = 0xfffe; });
  EXPECT_NE(many_ph.error.find("program header table"), std::string::npos) << many_ph.error;
  auto seg = with([](Elf64_Ehdr&, Elf64_Phdr& ph, Elf64_Nhdr&) { ph.p_filesz = 1ull << 40; });
  EXPECT_FALSE(seg.error.empty());
  auto note = with([](Elf64_Ehdr&, Elf64_Phdr&, Elf64_Nhdr& nh) { nh.n_descsz = 0xfffffff0u; });
  EXPECT_NE(note.error.find("note"), std::string::npos) << note.error;
  EXPECT_TRUE(note.build_id.empty());
  auto entsize = with([](Elf64_Ehdr& eh, Elf64_Phdr&, Elf64_Nhdr&) { eh.e_phentsize = 7; });
  EXPECT_NE(entsize.error.find("entry size"), std::string::npos) << entsize.error;
  auto elf32 =
      with([](Elf64_Ehdr& eh, Elf64_Phdr&, Elf64_Nhdr&) { eh.e_ident[EI_CLASS] = ELFCLASS32; });
  EXPECT_TRUE(elf32.is_elf);
  EXPECT_NE(elf32.error.find("64-bit"), std::string::npos) << elf32.error;
}

TEST(ElfInfo, random_corruption_never_crashes) {
  const std::string small = test::find_program({"/usr/bin/true", "/bin/true"});
  if (small.empty()) GTEST_SKIP() << "no /usr/bin/true to corrupt";
  test::TempDir tmp;
  const std::string original = test::read_file(small);
  std::mt19937_64 rng(20240611);
  int errors = 0;
  for (int round = 0; round < 300; ++round) {
    std::string bytes = original;
    const int flips = 1 + static_cast<int>(rng() % 16);
    for (int i = 0; i < flips; ++i) {
      // Aim at the headers: the ELF header, the program headers, and the section header table
      // at the end of the file, where a corrupted size or offset does the most damage.
      const std::size_t region = rng() % 3;
      const std::size_t pos = region == 0   ? rng() % 64
                              : region == 1 ? 64 + rng() % 1024
                                            : bytes.size() - 1 - rng() % 2048;
      bytes[pos] = static_cast<char>(rng());
    }
    if (rng() % 4 == 0) bytes.resize(rng() % bytes.size());
    const ElfInfo info = read_elf_info(tmp.write("corrupt", bytes));
    if (!info.error.empty()) ++errors;
  }
  EXPECT_GT(errors, 0);
}

}  // namespace
}  // namespace jbench
