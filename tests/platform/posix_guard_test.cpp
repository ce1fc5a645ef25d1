// The two guards of the posix configuration (cmake/JbenchPlatform.cmake), each shown to refuse
// what it must: a Linux-only header stops the compiler with its name, and the call check names
// each Linux-only function a program calls (this Linux build's jbench calls several).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "run_process.h"
#include "temp_dir.h"

namespace jbench::test {
namespace {

TEST(PosixGuard, a_linux_only_header_stops_the_compiler_with_its_name) {
  TempDir dir;
  const std::string source =
      dir.write("uses_prctl.cpp", "#include <sys/prctl.h>\nint main() { return 0; }\n");
  const auto shadowed =
      run_process({JBENCH_CXX, "-fsyntax-only", "-I", JBENCH_LINUX_ONLY_SHADOW_DIR, source});
  EXPECT_NE(shadowed.exit_code, 0);
  EXPECT_NE(shadowed.err.find("<sys/prctl.h> is Linux's alone"), std::string::npos) << shadowed.err;
  // The control: the same file compiles without the shadowing headers (it is the header, not
  // the file, that stops it).
  const auto plain = run_process({JBENCH_CXX, "-fsyntax-only", source});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
}

TEST(PosixGuard, a_header_of_every_system_passes) {
  TempDir dir;
  const std::string source =
      dir.write("portable.cpp",
                "#include <fcntl.h>\n#include <sys/stat.h>\n#include <sys/random.h>\n"
                "#include <sys/syscall.h>\n#include <unistd.h>\nint main() { return 0; }\n");
  const auto r =
      run_process({JBENCH_CXX, "-fsyntax-only", "-I", JBENCH_LINUX_ONLY_SHADOW_DIR, source});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// The list of cmake/JbenchPlatform.cmake, as CMake passes it to the check (a;b;c).
std::string linux_only_functions() {
  std::string list = JBENCH_LINUX_ONLY_FUNCTIONS;
  std::replace(list.begin(), list.end(), ',', ';');
  return list;
}

ProcessResult check_calls(const std::string& file) {
  return run_process({JBENCH_CMAKE, "-DNM=" JBENCH_NM, "-DFILES=" + file,
                      "-DFUNCTIONS=" + linux_only_functions(), "-P",
                      std::string(JBENCH_SOURCE_DIR) + "/cmake/JbenchLinuxOnlyCalls.cmake"});
}

TEST(PosixGuard, the_call_check_names_each_linux_only_function_a_program_calls) {
  // This build is for Linux: its jbench ties its workers' lives to its own (prctl) and makes
  // its pipes with pipe2.
  const auto linux_build = check_calls(JBENCH_BINARY);
  EXPECT_NE(linux_build.exit_code, 0);
  EXPECT_NE(linux_build.err.find("calls Linux-only functions"), std::string::npos)
      << linux_build.err;
  EXPECT_NE(linux_build.err.find(": prctl"), std::string::npos) << linux_build.err;
  EXPECT_NE(linux_build.err.find(": pipe2"), std::string::npos) << linux_build.err;
  // A program of the C library's portable calls alone passes: the system's own `true`.
  const auto portable = check_calls("/bin/true");
  EXPECT_EQ(portable.exit_code, 0) << portable.err;
  EXPECT_NE(portable.out.find("call no Linux-only function"), std::string::npos) << portable.out;
}

TEST(PosixGuard, a_file_nm_cannot_read_fails_the_check_with_nms_words) {
  const auto r = check_calls("/no/such/program");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("/no/such/program"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace jbench::test
