// `jbench validate ARCHIVE`: the archive extracted safely into a private temporary directory,
// the copy validated there, the directory removed before returning (on every path, including
// refusals and errors). Archive findings use the validator's finding format, with `file` the
// entry's name as the archive spells it. Private to jbench::cli.
#pragma once

#include <string>

#include "jbench/validate/validate.h"

namespace jbench::cli {

// report.bundle is the archive's path as given. A file that is not a tar archive, or that cannot
// be extracted for a system reason, gives report.unreadable with one `bundle.unreadable` finding
// whose message says why (exit 2), as for a directory that cannot be opened.
ValidationReport validate_archive(const std::string& archive_file);

}  // namespace jbench::cli
