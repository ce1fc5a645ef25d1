#include "png_pixels.h"

#include <zlib.h>

#include <cstdlib>
#include <cstring>

namespace jbench::test {
namespace {

std::uint32_t be32(const unsigned char* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}

int paeth(int a, int b, int c) {
  const int p = a + b - c;
  const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

bool inflate_all(const std::string& in, std::vector<unsigned char>& out) {
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return false;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  int rc = Z_OK;
  std::size_t produced = 0;
  while (rc == Z_OK) {
    if (out.size() - produced < 65536) out.resize(produced + 65536);
    zs.next_out = out.data() + produced;
    zs.avail_out = static_cast<uInt>(out.size() - produced);
    rc = inflate(&zs, Z_NO_FLUSH);
    produced = out.size() - zs.avail_out;
  }
  inflateEnd(&zs);
  out.resize(produced);
  return rc == Z_STREAM_END;
}

}  // namespace

PngImage decode_png(const std::string& bytes) {
  PngImage img;
  static const unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kSignature, 8) != 0) {
    img.error = "not a PNG (no signature)";
    return img;
  }
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  std::string idat;
  int channels = 0;
  // Chunks: length, type, data, CRC. The CRCs are not checked: zlib's own checksum guards the
  // pixels, and a test only needs to tell a blank picture from a drawn one.
  for (std::size_t at = 8; at + 12 <= bytes.size();) {
    const std::uint32_t len = be32(data + at);
    const std::string type(bytes, at + 4, 4);
    if (at + 12 + len > bytes.size()) {
      img.error = "truncated chunk " + type;
      return img;
    }
    const unsigned char* body = data + at + 8;
    if (type == "IHDR" && len >= 13) {
      img.width = be32(body);
      img.height = be32(body + 4);
      const int depth = body[8], colour = body[9], interlace = body[12];
      channels = colour == 2 ? 3 : colour == 6 ? 4 : 0;
      if (depth != 8 || channels == 0 || interlace != 0) {
        img.error = "unsupported PNG: depth " + std::to_string(depth) + ", colour type " +
                    std::to_string(colour) + ", interlace " + std::to_string(interlace);
        return img;
      }
    } else if (type == "IDAT") {
      idat.append(reinterpret_cast<const char*>(body), len);
    } else if (type == "IEND") {
      break;
    }
    at += 12 + len;
  }
  if (channels == 0) {
    img.error = "no IHDR chunk";
    return img;
  }
  std::vector<unsigned char> raw;
  if (!inflate_all(idat, raw)) {
    img.error = "the IDAT stream does not inflate";
    return img;
  }
  const std::size_t stride = std::size_t{img.width} * channels;
  if (raw.size() < (stride + 1) * img.height) {
    img.error = "the IDAT stream is shorter than the image";
    return img;
  }
  // Undo each scanline's filter in place, against the already unfiltered row above.
  std::vector<unsigned char> prev(stride, 0), row(stride);
  img.pixels.reserve(std::size_t{img.width} * img.height);
  for (std::uint32_t y = 0; y < img.height; ++y) {
    const unsigned char* line = raw.data() + y * (stride + 1);
    const int filter = line[0];
    for (std::size_t i = 0; i < stride; ++i) {
      const int a = i >= static_cast<std::size_t>(channels) ? row[i - channels] : 0;
      const int b = prev[i];
      const int c = i >= static_cast<std::size_t>(channels) ? prev[i - channels] : 0;
      int v = line[1 + i];
      switch (filter) {
        case 0:
          break;
        case 1:
          v += a;
          break;
        case 2:
          v += b;
          break;
        case 3:
          v += (a + b) / 2;
          break;
        case 4:
          v += paeth(a, b, c);
          break;
        default:
          img.error = "unknown scanline filter " + std::to_string(filter);
          img.pixels.clear();
          return img;
      }
      row[i] = static_cast<unsigned char>(v);
    }
    for (std::size_t x = 0; x < img.width; ++x) {
      const unsigned char* p = row.data() + x * channels;
      img.pixels.push_back(std::uint32_t{p[0]} << 16 | std::uint32_t{p[1]} << 8 | p[2]);
    }
    prev.swap(row);
  }
  return img;
}

}  // namespace jbench::test
