// `jbench archive BUNDLE -o FILE [--allow-invalid]`: the bundle as one file that
// `jbench validate FILE` checks later, anywhere. The bundle is validated first: an archive is a
// copy, and a copy of an invalid bundle would only fail again elsewhere.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/archive/archive.h"
#include "jbench/cli/cli.h"
#include "jbench/validate/validate.h"

namespace jbench::cli {
namespace {

struct ArchiveOptions {
  std::string bundle;
  std::string out;
  bool allow_invalid = false;
};

int run_archive(const ArchiveOptions& o) {
  const ValidationReport report = validate_bundle(o.bundle);
  if (report.unreadable) {
    std::cerr << "jbench: error: " << report.findings.front().message << '\n';
    return kExitUsage;
  }
  if (!report.valid()) {
    std::cerr << report_to_text(report);
    if (!o.allow_invalid) {
      std::cerr << fmt::format(
          "jbench: error: refusing to archive '{}': it is invalid ({} findings above), and its "
          "copy would be too. Pass --allow-invalid to archive it anyway, as evidence.\n",
          o.bundle, report.findings.size());
      return kExitCheckFailed;
    }
    std::cerr << "jbench: warning: archiving an invalid bundle (--allow-invalid)\n";
  }
  auto made = archive::create_archive(o.bundle, o.out);
  if (!made) {
    std::cerr << "jbench: error: " << made.error().message << '\n';
    return kExitUsage;
  }
  std::cerr << fmt::format("archived {} entries ({} bytes of files, {}) from {}\n", made->entries,
                           made->data_bytes, made->compression, o.bundle);
  std::cout << o.out << '\n';
  return kExitOk;
}

}  // namespace

Action add_archive_command(CLI::App& app) {
  auto o = std::make_shared<ArchiveOptions>();
  app.add_option("BUNDLE", o->bundle, "the bundle directory to archive")->required();
  app.add_option("-o,--output", o->out, "the archive to write (never overwritten)")->required();
  app.add_flag("--allow-invalid", o->allow_invalid,
               "archive a bundle that does not validate (its copy will not validate either)");
  app.footer(
      "Writes a tar compressed with zstd (gzip where zstd is unavailable) holding the bundle's "
      "directory; `jbench validate FILE` checks it. See docs/archive.md.\nExit codes: 0 written, "
      "1 the bundle is invalid (nothing written), 2 bad usage, an unreadable bundle or an "
      "archive that cannot be written.");
  return [o] { return run_archive(*o); };
}

}  // namespace jbench::cli
