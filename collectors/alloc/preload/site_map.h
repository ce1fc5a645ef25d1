// Names a code address as `object+offset` (the object's path, the offset from where it is
// loaded), from the process's mappings (/proc/self/maps, through jb_platform.h) read once when
// the file is written.
//
// Not dladdr: dladdr takes the dynamic loader's lock, and in a fork child of a multithreaded
// program that lock may be held forever by a thread that does not exist in the child; the
// child would hang at exit. Reading /proc/self/maps takes no lock and allocates nothing (fixed
// tables; addresses in objects past their capacity are written bare).
#pragma once

#include <cstdint>

namespace jb_alloc {

// Reads the current mappings. Not thread-safe: one writer at a time (the lifecycle's rule).
void load_site_map() noexcept;

// The file-backed mapping holding `address`: its path and the offset of `address` from the
// object's load base (its first mapping, the one at file offset 0). False if none holds it.
bool find_site(std::uint64_t address, const char*& path, std::uint64_t& offset) noexcept;

}  // namespace jb_alloc
