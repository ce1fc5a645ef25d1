// jbench-oracle-sqlite3: the sqlite3 command-line shell as an external engine speaking the
// oracle's line protocol (docs/oracle-protocol.md) on stdin and stdout — the protocol's first
// real external engine, and a model for wrapping another.
//
//   jbench-oracle-sqlite3 [--sqlite3 PATH] [--functions MODULE] [DATABASE]
//
// DATABASE defaults to :memory:. MODULE is the oracle's functions as a loadable extension
// (jbench-oracle-functions.so); by default the one beside this program, if it is there.
// Exit codes: 0 after quit or the end of input, 2 bad usage or a request that breaks the
// protocol, 3 the shell could not be started.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>

#include "jbench/common/path_search.h"
#include "jbench/oracle/serve.h"
#include "jbench/oracle/sqlite_shell_target.h"

namespace {

std::string beside_me(const std::string& file) {
  const std::string me = jbench::self_executable();
  if (me.empty()) return "";
  std::error_code ec;
  std::filesystem::path p = std::filesystem::path(me).parent_path() / file;
  return std::filesystem::exists(p, ec) ? p.string() : "";
}

}  // namespace

int main(int argc, char** argv) {
  jbench::oracle::ShellOptions options;
  options.functions_module = beside_me("jbench-oracle-functions.so");
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--sqlite3" || a == "--functions") && i + 1 < argc) {
      (a == "--sqlite3" ? options.sqlite3 : options.functions_module) = argv[++i];
    } else if (a == "--help" || a == "-h") {
      std::cout << "usage: jbench-oracle-sqlite3 [--sqlite3 PATH] [--functions MODULE] "
                   "[DATABASE]\nthe sqlite3 shell as an engine speaking the jbench oracle "
                   "protocol on stdin/stdout (docs/oracle-protocol.md)\n";
      return 0;
    } else if (!a.empty() && a[0] != '-') {
      options.database = a;
    } else {
      std::cerr << "jbench-oracle-sqlite3: unknown option '" << a << "' (try --help)\n";
      return 2;
    }
  }
  auto shell = jbench::oracle::SqliteShellTarget::start(options);
  if (!shell) {
    std::cerr << "jbench-oracle-sqlite3: " << shell.error().message << "\n";
    return 3;
  }
  return jbench::oracle::serve_protocol(*shell, std::cin, std::cout, std::cerr, shell->name());
}
