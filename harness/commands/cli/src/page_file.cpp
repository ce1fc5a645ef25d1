#include "page_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace jbench::cli {

bool write_page(const std::string& path, const std::string& page, std::string_view what) {
  const std::string tmp = path + ".tmp";
  std::string error;
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << page;
    if (!out.flush()) error = errno ? std::strerror(errno) : "the write failed";
  }
  std::error_code ec;
  if (error.empty()) std::filesystem::rename(tmp, path, ec);
  if (ec) error = ec.message();
  if (!error.empty()) {
    std::filesystem::remove(tmp, ec);  // a failed write leaves nothing behind
    std::cerr << "jbench: error: cannot write " << path << ": " << error << '\n';
    return false;
  }
  std::cerr << what << ": " << path << '\n';
  return true;
}

}  // namespace jbench::cli
