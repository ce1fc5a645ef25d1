# jbench_library(NAME SOURCES ... DEPS ...): one component = one static library `jbench_<NAME>`
# with the alias `jbench::<NAME>`; its public headers live in <component>/include/.
set(JBENCH_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Werror=return-type)

# Unity builds: a target's sources are compiled a few at a time as one translation unit, so the
# heavy headers every file includes (nlohmann_json, fmt, the standard library) are parsed and
# their templates instantiated once per batch instead of once per file. A source that cannot
# share a unit (it defines a macro or a name another file of its target also defines) says so
# with SKIP_UNITY_BUILD_INCLUSION. -DJBENCH_UNITY=OFF compiles file by file.
option(JBENCH_UNITY "Compile each target's sources in batches (unity builds)" ON)
set(JBENCH_UNITY_BATCH 8 CACHE STRING "Sources per unity translation unit")
function(jbench_unity target)
  if(JBENCH_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                                               UNITY_BUILD_BATCH_SIZE ${JBENCH_UNITY_BATCH})
  endif()
endfunction()

function(jbench_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(jbench_${name} STATIC ${ARG_SOURCES})
  add_library(jbench::${name} ALIAS jbench_${name})
  target_include_directories(jbench_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(jbench_${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  target_compile_options(jbench_${name} PRIVATE ${JBENCH_WARNINGS})
  jbench_unity(jbench_${name})
endfunction()

# jbench_test(NAME SOURCES ... DEPS ... [LABELS ...] [TIMEOUT S]): a GoogleTest executable
# registered with ctest. TIMEOUT (default 120 s) is each test's safety net: far above its real
# duration on the slowest machine of the kind, never a measurement.
function(jbench_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} jbench_test_support GTest::gtest_main
                                        GTest::gmock)
  target_compile_options(${name} PRIVATE ${JBENCH_WARNINGS})
  jbench_unity(${name})
  set(labels unit)
  if(ARG_LABELS)
    set(labels ${ARG_LABELS})
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 30 PROPERTIES LABELS "${labels}"
                       TIMEOUT ${ARG_TIMEOUT}
                       WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()

# jbench_test_paths(TARGET [BUILD NAME PATH ...] [SOURCE NAME PATH ...]), for a suite's or a
# benchmark's target: each PATH, in the build tree (BUILD; generator expressions such as
# $<TARGET_FILE:jbench> allowed) or in the checkout (SOURCE), reaches the target's code as the
# macro NAME: an expression giving the path as a std::string, found at run time
# (tests/support/build_paths.h, included into every unit of the target). Absolute paths compiled
# in would make each of the target's objects differ between two clones of the same sources, so a
# second clone could reuse none of them from ccache.
function(jbench_test_paths target)
  cmake_parse_arguments(ARG "" "" "BUILD;SOURCE" ${ARGN})
  set(definitions)
  foreach(kind BUILD SOURCE)
    set(pairs ${ARG_${kind}})
    list(LENGTH pairs count)
    math(EXPR odd "${count} % 2")
    if(odd)
      message(FATAL_ERROR "jbench_test_paths(${target}): ${kind} takes NAME PATH pairs")
    endif()
    while(pairs)
      list(POP_FRONT pairs name path)
      if(kind STREQUAL "BUILD")
        set(relative "$<PATH:RELATIVE_PATH,${path},${CMAKE_BINARY_DIR}>")
        list(APPEND definitions "${name}=::jbench::test::build_path(\"${relative}\")")
      else()
        file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${path})
        list(APPEND definitions "${name}=::jbench::test::source_path(\"${relative}\")")
      endif()
    endwhile()
  endforeach()
  target_compile_definitions(${target} PRIVATE ${definitions})
  target_compile_options(${target} PRIVATE -include build_paths.h)
  target_link_libraries(${target} PRIVATE jbench_build_paths)
endfunction()

# jbench_second_tree(ARGS_FILE TREE [OPTION...]): writes to ARGS_FILE, one per line, the cmake
# command that configures a second build tree TREE of this source with this tree's generator,
# compilers, build type and ccache launcher (found on PATH when this tree has none), and with
# OPTION... (-DJBENCH_...=...). A test configures and builds it (tests/run/tracing_off_test.cpp,
# tests/platform/posix_build_test.cpp); ccache makes every build after the first cheap.
function(jbench_second_tree args_file tree)
  set(configure
    ${CMAKE_COMMAND} -S ${PROJECT_SOURCE_DIR} -B ${tree} -G ${CMAKE_GENERATOR}
    -DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM} -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
    -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    -DJBENCH_DEPS_PREFIX=${JBENCH_DEPS_PREFIX} ${ARGN})
  set(launcher ${CMAKE_CXX_COMPILER_LAUNCHER})
  if(NOT launcher)
    find_program(JBENCH_CCACHE ccache DOC "ccache, for the tests' second build trees")
    if(JBENCH_CCACHE)
      set(launcher ${JBENCH_CCACHE})
    endif()
  endif()
  if(launcher)
    list(APPEND configure -DCMAKE_C_COMPILER_LAUNCHER=${launcher}
         -DCMAKE_CXX_COMPILER_LAUNCHER=${launcher})
  endif()
  list(JOIN configure "\n" lines)
  file(CONFIGURE OUTPUT ${args_file} CONTENT "${lines}\n" @ONLY)
endfunction()
