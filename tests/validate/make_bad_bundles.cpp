// Writes every invalid bundle of the catalogue (mutations.cpp) beside a copy of the valid one,
// for people who want to look at them or try another validator on them:
//
//   build/bin/jbench-make-bad-bundles OUT_DIR      # OUT_DIR/<mutation>/ ... plus OUT_DIR/README
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "mutations.h"
#include "validate_test_support.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: jbench-make-bad-bundles OUT_DIR\n");
    return 2;
  }
  const std::string out = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec || !std::filesystem::is_empty(out, ec)) {
    std::fprintf(stderr, "jbench-make-bad-bundles: %s must be an empty or new directory\n",
                 out.c_str());
    return 2;
  }
  std::ofstream readme(out + "/README");
  for (const auto& m : jbench::test::mutations()) {
    const std::string bundle = out + "/" + m.dir_name();
    jbench::test::copy_valid_fixture(bundle);
    m.apply(jbench::test::BundleEditor(bundle));
    readme << m.dir_name() << ":";
    for (const auto& c : m.expected_codes) readme << " " << c;
    readme << "\n    " << m.what << "\n";
  }
  return readme.flush() ? 0 : 1;
}
