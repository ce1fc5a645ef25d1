/* The shapes the compiled syscall tracer (syscall_trace.bpf.c) shares with its loader
 * (src/libbpf_tracer.cpp): map sizes, keys, values and ring-buffer events. C, for both sides. */
#ifndef JBENCH_SYSCALL_TRACE_H
#define JBENCH_SYSCALL_TRACE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define JB_MAX_SYSCALL_NR 512
#define JB_MAX_COHORT 4096
#define JB_MAX_IN_FLIGHT 16384
/* Per-CPU and preallocated: 4096 keys of 352 bytes are 1.4 MiB per CPU. Enough for 32 workers
 * and their forks over 4 phases and 14 calls; a full map counts as lost, never as silence. */
#define JB_MAX_TOTALS 4096
#define JB_RING_BYTES (1 << 20)
#define JB_HIST_BUCKETS 40
#define JB_CANARY_PATH 64

/* What the harness says of each syscall number. */
#define JB_KIND_NONE 0
#define JB_KIND_PATH 1
#define JB_KIND_FD 2
#define JB_KIND_FD_REQUEST 3
#define JB_KIND_CANARY 4

struct jb_call_info {
  __u32 call;     /* TracedCall::id */
  __u32 kind;     /* JB_KIND_* */
  __u32 path_arg; /* canaries: which argument is the path */
  __u32 pad;
};

struct jb_totals_key {
  __u32 tgid;
  __u16 phase;
  __u16 call;
  __u64 request; /* flock operation, fcntl command, ioctl request; 0 for the others */
};

struct jb_totals {
  __u64 count;
  __u64 errors;
  __u64 total_ns;
  __u64 max_ns;
  __u64 hist[JB_HIST_BUCKETS]; /* bucket b: durations in [2^b, 2^(b+1)) ns, b = 0 also 0..1 */
};

#define JB_EVENT_CANARY 1
#define JB_EVENT_FORK 2

struct jb_event {
  __u32 type;
  __u32 pid; /* canary: the member; fork: the child */
  __u32 tid; /* canary: the thread; fork: the parent */
  __u32 pad;
  __u64 t_ns;
  __u64 other; /* fork: the child's start_boottime (ns) */
  char path[JB_CANARY_PATH];
};

#endif
