# Writes OUTPUT, a header with the git revision of SOURCE_DIR and whether its tree is dirty, and
# rewrites it only when that changed (so a build after a commit recompiles one file, and a build
# without one recompiles nothing). Run at every build by the jbench_source_revision target:
#   cmake -DSOURCE_DIR=<repo> -DOUTPUT=<header> -P source_revision.cmake
# Outside a git checkout (an unpacked tarball), or without git, both are "unknown".
set(revision "unknown")
set(dirty "unknown")
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse HEAD
                  OUTPUT_VARIABLE rev RESULT_VARIABLE rev_rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rev_rc EQUAL 0 AND rev MATCHES "^[0-9a-f]+$")
    set(revision ${rev})
    # --no-optional-locks: status must not refresh (write) the index of someone's checkout.
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} --no-optional-locks
                            status --porcelain
                    OUTPUT_VARIABLE status RESULT_VARIABLE status_rc ERROR_QUIET)
    if(status_rc EQUAL 0)
      if(status STREQUAL "")
        set(dirty "false")
      else()
        set(dirty "true")
      endif()
    endif()
  endif()
endif()
set(content "// Generated at build time by harness/evidence/provenance/source_revision.cmake.
#define JBENCH_SOURCE_REVISION \"${revision}\"
#define JBENCH_SOURCE_DIRTY \"${dirty}\"
")
set(old "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL content)
  file(WRITE ${OUTPUT} "${content}")
endif()
