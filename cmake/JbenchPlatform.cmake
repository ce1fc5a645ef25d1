# The system jbench is built for (docs/platforms.md): `linux`, or `posix` for the systems DTrace
# lives on (macOS, FreeBSD, illumos). Empty: linux on Linux, else posix.
#
# JBENCH_PLATFORM=posix on a Linux host builds the posix configuration here, as it would build
# elsewhere, and proves it uses nothing of Linux's own:
# - every header of JBENCH_LINUX_ONLY_HEADERS is shadowed by one that stops the compiler with an
#   #error naming it, so code of the posix configuration that includes one does not compile;
# - the target jbench-posix-check fails when a program or library of that configuration calls a
#   function of JBENCH_LINUX_ONLY_FUNCTIONS (its undefined dynamic symbols, read with nm).
# Code that differs by system tests JBENCH_PLATFORM_LINUX (1 or 0), which the libraries that need
# it take from jbench::platform_choice; the in-process libraries choose their file instead
# (core/platform).
set(JBENCH_PLATFORM "" CACHE STRING
    "The system jbench is built for: linux or posix (empty: linux on Linux, else posix)")
set_property(CACHE JBENCH_PLATFORM PROPERTY STRINGS "" linux posix)
if(JBENCH_PLATFORM STREQUAL "")
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    set(JBENCH_PLATFORM linux)
  else()
    set(JBENCH_PLATFORM posix)
  endif()
endif()
if(NOT JBENCH_PLATFORM MATCHES "^(linux|posix)$")
  message(FATAL_ERROR "JBENCH_PLATFORM=${JBENCH_PLATFORM}: linux or posix")
endif()
if(JBENCH_PLATFORM STREQUAL "linux" AND NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
  message(FATAL_ERROR "JBENCH_PLATFORM=linux on ${CMAKE_SYSTEM_NAME}: use posix")
endif()
set(JBENCH_PLATFORM_CHOSEN ${JBENCH_PLATFORM} CACHE INTERNAL "the system jbench is built for")

add_library(jbench_platform_choice INTERFACE)
if(JBENCH_PLATFORM STREQUAL "linux")
  target_compile_definitions(jbench_platform_choice INTERFACE JBENCH_PLATFORM_LINUX=1)
else()
  target_compile_definitions(jbench_platform_choice INTERFACE JBENCH_PLATFORM_LINUX=0)
endif()
add_library(jbench::platform_choice ALIAS jbench_platform_choice)

# Headers that are Linux's or glibc's alone (macOS has none of them; FreeBSD few).
set(JBENCH_LINUX_ONLY_HEADERS
    elf.h malloc.h mntent.h gnu/libc-version.h sys/prctl.h sys/inotify.h sys/sysmacros.h
    sys/sysinfo.h sys/auxv.h sys/personality.h sys/fanotify.h sys/signalfd.h sys/timerfd.h
    linux/perf_event.h linux/futex.h linux/bpf.h bpf/bpf.h bpf/libbpf.h)
# C library functions macOS or FreeBSD lacks (or declares otherwise).
set(JBENCH_LINUX_ONLY_FUNCTIONS
    prctl inotify_init inotify_init1 inotify_add_watch inotify_rm_watch epoll_create
    epoll_create1 epoll_ctl epoll_wait epoll_pwait signalfd timerfd_create timerfd_settime eventfd
    memfd_create pipe2 accept4 dup3 close_range getrandom sched_getaffinity sched_setaffinity
    sched_getcpu gnu_get_libc_version renameat2 clock_nanosleep malloc_usable_size mallinfo
    mallinfo2 malloc_trim memalign pvalloc getauxval get_nprocs get_nprocs_conf sysinfo gettid
    tgkill syncfs statx copy_file_range splice vmsplice tee posix_fadvise fallocate
    posix_fallocate mremap ppoll secure_getenv execvpe strchrnul pthread_getattr_np
    pthread_setaffinity_np pthread_getaffinity_np strerrorname_np strerrordesc_np sigabbrev_np
    sigdescr_np)

# The shadowing headers, written for every build (tests/platform compiles against them) and put
# first on the include path of the posix configuration on Linux.
set(JBENCH_LINUX_ONLY_SHADOW_DIR ${CMAKE_BINARY_DIR}/linux-only-headers)
file(REMOVE_RECURSE ${JBENCH_LINUX_ONLY_SHADOW_DIR})  # none left from a longer list
foreach(header IN LISTS JBENCH_LINUX_ONLY_HEADERS)
  file(CONFIGURE OUTPUT ${JBENCH_LINUX_ONLY_SHADOW_DIR}/${header} CONTENT
       "#error \"<${header}> is Linux's alone: the posix configuration (JBENCH_PLATFORM=posix) \
must not include it (cmake/JbenchPlatform.cmake)\"\n")
endforeach()
if(JBENCH_PLATFORM STREQUAL "posix" AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
  include_directories(BEFORE ${JBENCH_LINUX_ONLY_SHADOW_DIR})
endif()

# jbench_posix_check(TARGET...): the target jbench-posix-check, which fails when one of these
# programs or libraries calls a function of JBENCH_LINUX_ONLY_FUNCTIONS.
function(jbench_posix_check)
  set(files "")
  foreach(target IN LISTS ARGN)
    list(APPEND files "$<TARGET_FILE:${target}>")
  endforeach()
  add_custom_target(jbench-posix-check ALL
    COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} "-DFILES=${files}"
            "-DFUNCTIONS=${JBENCH_LINUX_ONLY_FUNCTIONS}"
            -P ${PROJECT_SOURCE_DIR}/cmake/JbenchLinuxOnlyCalls.cmake
    DEPENDS ${ARGN}
    COMMENT "Checking that the posix configuration calls no Linux-only function"
    VERBATIM)
endfunction()
