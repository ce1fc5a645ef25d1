# Compiled BPF programs (collectors/syscall/bpf): clang -target bpf against the running kernel's
# BTF (vmlinux.h, dumped by bpftool), then a libbpf skeleton (bpftool gen skeleton) that embeds
# the object into the library that includes it, so nothing is read from disk at run time.
# CO-RE relocations let the object load on other kernels with BTF.
#
# JBENCH_LIBBPF is ON when clang, bpftool, libbpf (>= 1.0) and the kernel's BTF are all here
# (ci/install-deps.sh installs the first three; the kernel must have CONFIG_DEBUG_INFO_BTF).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(LIBBPF QUIET IMPORTED_TARGET libbpf>=1.0)
endif()
find_program(JBENCH_BPFTOOL bpftool PATHS /usr/sbin /sbin)
find_program(JBENCH_BPF_CLANG NAMES clang clang-14)
find_program(JBENCH_LLVM_STRIP NAMES llvm-strip llvm-strip-14)
set(JBENCH_BTF_FILE /sys/kernel/btf/vmlinux CACHE FILEPATH "The kernel BTF that vmlinux.h is dumped from")
set(JBENCH_LIBBPF OFF)
if(LIBBPF_FOUND AND JBENCH_BPFTOOL AND JBENCH_BPF_CLANG AND JBENCH_LLVM_STRIP AND
   EXISTS ${JBENCH_BTF_FILE} AND JBENCH_PLATFORM STREQUAL "linux")
  set(JBENCH_LIBBPF ON)
else()
  message(STATUS "jbench: the compiled BPF backend is not built (needs Linux, libbpf-dev, bpftool, clang, "
                 "llvm and ${JBENCH_BTF_FILE}: bash ci/install-deps.sh)")
endif()

if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(JBENCH_BPF_ARCH x86)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
  set(JBENCH_BPF_ARCH arm64)
else()
  set(JBENCH_BPF_ARCH ${CMAKE_SYSTEM_PROCESSOR})
endif()

# jbench_bpf_skeleton(NAME SOURCE [INCLUDES dir...]): builds ${CMAKE_CURRENT_BINARY_DIR}/bpf/
# NAME.skel.h from SOURCE; the variable NAME_SKELETON_DIR names that directory.
function(jbench_bpf_skeleton name source)
  cmake_parse_arguments(ARG "" "" "INCLUDES" ${ARGN})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/bpf)
  file(MAKE_DIRECTORY ${out})
  if(NOT TARGET jbench_vmlinux_h)
    add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/bpf/vmlinux.h
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/bpf
      COMMAND sh -c "'${JBENCH_BPFTOOL}' btf dump file '${JBENCH_BTF_FILE}' format c > '${CMAKE_BINARY_DIR}/bpf/vmlinux.h.tmp'"
      COMMAND ${CMAKE_COMMAND} -E rename ${CMAKE_BINARY_DIR}/bpf/vmlinux.h.tmp ${CMAKE_BINARY_DIR}/bpf/vmlinux.h
      COMMENT "Dumping the kernel's BTF as vmlinux.h" VERBATIM)
    add_custom_target(jbench_vmlinux_h DEPENDS ${CMAKE_BINARY_DIR}/bpf/vmlinux.h)
  endif()
  set(includes -I${CMAKE_BINARY_DIR}/bpf)
  foreach(dir ${ARG_INCLUDES})
    list(APPEND includes -I${dir})
  endforeach()
  foreach(dir ${LIBBPF_INCLUDE_DIRS})
    list(APPEND includes -I${dir})
  endforeach()
  # -MD: clang lists the headers it read in a depfile, so editing a header the loader shares with
  # the program (its map and record layouts) rebuilds the program too, never only the loader.
  add_custom_command(OUTPUT ${out}/${name}.bpf.o
    COMMAND ${JBENCH_BPF_CLANG} -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_${JBENCH_BPF_ARCH}
            -Wall -Werror ${includes} -ffile-prefix-map=${PROJECT_SOURCE_DIR}=.
            -MD -MF ${out}/${name}.bpf.d -c ${source}
            -o ${out}/${name}.bpf.o
    # -g gives the BTF that CO-RE needs; the DWARF beside it is 90% of the object and unused.
    # The BTF names the source files: relative to the checkout, the skeleton that embeds the
    # object, and the loader that includes it, are the same in every clone (ccache).
    # -mcpu=v3: atomics that return the old value (kernel 5.12 and later), for giving out slots.
    COMMAND ${JBENCH_LLVM_STRIP} -g ${out}/${name}.bpf.o
    DEPENDS ${source} ${CMAKE_BINARY_DIR}/bpf/vmlinux.h
    DEPFILE ${out}/${name}.bpf.d
    COMMENT "Compiling the BPF program ${name}" VERBATIM)
  add_custom_command(OUTPUT ${out}/${name}.skel.h
    COMMAND sh -c "'${JBENCH_BPFTOOL}' gen skeleton '${out}/${name}.bpf.o' name ${name}_bpf > '${out}/${name}.skel.h.tmp'"
    COMMAND ${CMAKE_COMMAND} -E rename ${out}/${name}.skel.h.tmp ${out}/${name}.skel.h
    DEPENDS ${out}/${name}.bpf.o
    COMMENT "Generating the libbpf skeleton of ${name}" VERBATIM)
  add_custom_target(${name}_skeleton DEPENDS ${out}/${name}.skel.h)
  set(${name}_SKELETON_DIR ${out} PARENT_SCOPE)
endfunction()
