# cmake -DNM=nm -DFILES=a;b -DFUNCTIONS=f;g -P JbenchLinuxOnlyCalls.cmake
# Fails, naming each file and function, when a program or library of FILES calls one of
# FUNCTIONS: the Linux-only C library functions of cmake/JbenchPlatform.cmake, read from the
# file's undefined dynamic symbols ("prctl@GLIBC_2.2.5" is prctl).
cmake_policy(VERSION 3.25)
set(found "")
foreach(file IN LISTS FILES)
  execute_process(COMMAND ${NM} -D --undefined-only ${file}
                  OUTPUT_VARIABLE symbols ERROR_VARIABLE error RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${NM} -D --undefined-only ${file} failed (${status}): ${error}")
  endif()
  string(REGEX MATCHALL "U [A-Za-z0-9_]+" undefined "${symbols}")
  foreach(entry IN LISTS undefined)
    string(SUBSTRING "${entry}" 2 -1 name)
    if(name IN_LIST FUNCTIONS)
      list(APPEND found "${file}: ${name}")
    endif()
  endforeach()
endforeach()
if(found)
  list(JOIN found "\n  " lines)
  message(FATAL_ERROR "the posix configuration calls Linux-only functions "
                      "(cmake/JbenchPlatform.cmake):\n  ${lines}")
endif()
list(LENGTH FILES count)
message(STATUS "the posix configuration's ${count} files call no Linux-only function")
