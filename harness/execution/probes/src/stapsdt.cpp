#include "jbench/probes/stapsdt.h"

#include <fmt/format.h>

#include <cstring>

#include "jbench/elf/reader.h"

namespace jbench {

using namespace elf;  // the ELF format's names (jbench/elf/format.h)
namespace {

// Largest note section loaded into memory; a real one is a few KiB.
constexpr std::uint64_t kMaxNoteBytes = 16ull << 20;
constexpr std::uint32_t kStapsdtType = 3;  // NT_STAPSDT
constexpr std::uint32_t kJbenchAbiType = 1;

std::uint64_t align4(std::uint64_t v) { return (v + 3) & ~std::uint64_t{3}; }

// A NUL-terminated string inside [p, end); false if it runs off the end.
bool take_string(const unsigned char*& p, const unsigned char* end, std::string& out) {
  const void* nul = std::memchr(p, 0, static_cast<std::size_t>(end - p));
  if (!nul) return false;
  const auto* stop = static_cast<const unsigned char*>(nul);
  out.assign(reinterpret_cast<const char*>(p), static_cast<std::size_t>(stop - p));
  p = stop + 1;
  return true;
}

// A stapsdt descriptor: pc, base, semaphore (8 bytes each on ELF64), provider, name, args.
bool parse_stapsdt(const unsigned char* desc, std::uint64_t size, SdtProbe& probe) {
  if (size < 24) return false;
  std::memcpy(&probe.pc, desc, 8);
  std::memcpy(&probe.base, desc + 8, 8);
  std::memcpy(&probe.semaphore, desc + 16, 8);
  const unsigned char* p = desc + 24;
  const unsigned char* end = desc + size;
  return take_string(p, end, probe.provider) && take_string(p, end, probe.name) &&
         take_string(p, end, probe.args);
}

Error malformed(std::string why) { return {std::move(why), 0, ErrorKind::input}; }

// Walks one note section (4-byte aligned entries, as both kinds of note here are).
Status parse_notes(const std::vector<unsigned char>& data, const std::string& where,
                   SdtNotes& result) {
  std::uint64_t off = 0;
  const std::uint64_t size = data.size();
  while (off < size) {
    if (size - off < sizeof(Elf64_Nhdr)) {
      return malformed(fmt::format("{}: truncated note header at offset {}", where, off));
    }
    Elf64_Nhdr nh;
    std::memcpy(&nh, data.data() + off, sizeof nh);
    const std::uint64_t name_off = off + sizeof nh;
    const std::uint64_t desc_off = align4(name_off + nh.n_namesz);
    const std::uint64_t next = align4(desc_off + nh.n_descsz);
    if (desc_off + nh.n_descsz > size) {
      return malformed(fmt::format("{}: the note at offset {} runs past its section", where, off));
    }
    const std::string owner(reinterpret_cast<const char*>(data.data() + name_off),
                            nh.n_namesz > 0 ? nh.n_namesz - 1 : 0);
    const unsigned char* desc = data.data() + desc_off;
    if (owner == "stapsdt" && nh.n_type == kStapsdtType) {
      SdtProbe probe;
      if (!parse_stapsdt(desc, nh.n_descsz, probe)) {
        return malformed(fmt::format("{}: malformed stapsdt note at offset {}", where, off));
      }
      result.probes.push_back(std::move(probe));
    } else if (owner == "jbench" && nh.n_type == kJbenchAbiType && nh.n_descsz >= 8) {
      AbiVersion v;
      std::memcpy(&v.major, desc, 4);
      std::memcpy(&v.minor, desc + 4, 4);
      result.abi = v;
    }
    off = next;
  }
  return {};
}

}  // namespace

Result<SdtNotes> read_sdt_notes(const std::string& path) {
  const auto file = elf::OpenFile::open(path);
  if (!file) return file.error();
  const elf::Reader& r = (*file)->reader();
  const auto header = elf::read_elf_header(r);
  if (!header) return header.error();
  // The one section-table reader, extended numbering (more than 0xff00 sections) included.
  std::vector<std::string> errors;
  const elf::SectionTable table = elf::read_section_table(r, *header, errors);
  if (table.sections.empty() && !errors.empty()) {
    return malformed(fmt::format("{}: {}", path, errors.front()));
  }
  SdtNotes result;
  for (std::size_t i = 0; i < table.sections.size(); ++i) {
    const Elf64_Shdr& sh = table.sections[i];
    if (sh.sh_type != SHT_NOTE || sh.sh_size == 0) continue;
    if (sh.sh_size > kMaxNoteBytes) {
      return malformed(fmt::format("{}: note section {} is {} bytes, over the {} byte limit", path,
                                   i, sh.sh_size, kMaxNoteBytes));
    }
    const auto data = r.load(sh.sh_offset, sh.sh_size, "a note section");
    if (!data) return data.error().within(path);
    const Status parsed = parse_notes(*data, fmt::format("{}: note section {}", path, i), result);
    if (!parsed) return parsed.error();
  }
  return result;
}

std::optional<std::vector<int>> sdt_arg_sizes(const std::string& args) {
  std::vector<int> sizes;
  std::size_t i = 0;
  while (i < args.size()) {
    if (args[i] == ' ') {
      ++i;
      continue;
    }
    const std::size_t at = args.find('@', i);
    const std::size_t space = args.find(' ', i);
    if (at == std::string::npos || (space != std::string::npos && space < at)) return std::nullopt;
    try {
      std::size_t used = 0;
      const int size = std::stoi(args.substr(i, at - i), &used);
      if (used != at - i) return std::nullopt;
      sizes.push_back(size);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    i = space == std::string::npos ? args.size() : space;
  }
  return sizes;
}

}  // namespace jbench
