/*
 * spans.c — the bridge from C: every entry point once, a span continued on another thread
 * (jb_context_capture / jb_context_adopt) and in a forked child (W3C traceparent).
 *
 *   JBENCH_BRIDGE_MODE=full JBENCH_BRIDGE_OUT=/tmp/spans.events.jsonl ./spans [EXTRA_SPANS]
 *
 * Prints what a test needs to check the raw file: its pid, the forked child's pid, the root
 * span and the parents the thread and the child saw. Exit 0, or 3 if the bridge refused to start.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jbench_bridge.h"

static void* continue_on_thread(void* arg) {
  /* The thread has no context of its own: it adopts the one captured by its creator. */
  jb_context_adopt(*(const uint64_t*)arg);
  uint64_t span = jb_span_begin("thread-work", 0);
  jb_counter("thread-items", 7);
  jb_span_end(span);
  return NULL;
}

static int continue_in_child(uint64_t root) {
  char traceparent[JB_TRACEPARENT_LEN + 1];
  if (jb_traceparent_format(root, traceparent, sizeof traceparent) < 0 && jb_mode() != 0) {
    return -1;
  }
  fflush(stdout); /* the child must not print the parent's buffered output again */
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    /* As a worker would: the parent's span arrives as text and becomes this process's context. */
    uint64_t parent = 0;
    if (jb_traceparent_parse(traceparent, &parent) == 0) jb_context_adopt(parent);
    uint64_t span = jb_span_begin("child-work", 0);
    jb_span_end(span);
    exit(0); /* the bridge's atexit handler writes the child's records */
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  printf("child_pid=%d\n", (int)pid);
  return 0;
}

int main(int argc, char** argv) {
  int extra = argc > 1 ? atoi(argv[1]) : 0;
  if (jb_init_from_env() != 0) return 3;
  printf("pid=%d abi=%" PRIu32 "\n", (int)getpid(), jb_abi_version());

  jb_canary();
  jb_phase("measure");
  uint64_t root = jb_span_begin("root", 0);
  printf("root=%016" PRIx64 "\n", root);

  uint64_t work = jb_span_begin("work", 0); /* parent 0: the current span, root */
  jb_counter("items", 42);
  jb_alloc_sample(128, "spans.c:main");
  jb_gc_begin(0, 4096);
  jb_gc_end(0, 1024);
  jb_span_end(work);

  uint64_t context = jb_context_capture();
  pthread_t thread;
  if (pthread_create(&thread, NULL, continue_on_thread, &context) != 0) return 1;
  pthread_join(thread, NULL);

  if (continue_in_child(root) != 0) return 1;

  for (int i = 0; i < extra; ++i) jb_span_end(jb_span_begin("extra", 0));

  jb_span_end(root);
  jb_shutdown();
  return 0;
}
