// Just enough of a PNG decoder to look at a screenshot's pixels: 8-bit RGB or RGBA,
// non-interlaced (what headless Chromium writes). zlib inflates the IDAT stream; the scanline
// filters are undone here. Anything else is refused with a reason, not guessed at.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jbench::test {

struct PngImage {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint32_t> pixels;  // 0xRRGGBB per pixel, row by row (alpha dropped)
  std::string error;                  // non-empty: the file was not decoded, and why
};

PngImage decode_png(const std::string& bytes);

}  // namespace jbench::test
