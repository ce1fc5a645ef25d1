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

# jbench_test(NAME SOURCES ... DEPS ... [LABELS ...]): a GoogleTest executable registered with ctest.
function(jbench_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest_main GTest::gmock)
  target_compile_options(${name} PRIVATE ${JBENCH_WARNINGS})
  jbench_unity(${name})
  set(labels unit)
  if(ARG_LABELS)
    set(labels ${ARG_LABELS})
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 30 PROPERTIES LABELS "${labels}" TIMEOUT 120
                       WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()
