/*
 * probe_target.c — a target program for the bridge's runtime tests (tests/bridge/).
 *
 *   probe_target fire [--wait]              every probe of the provider once, with the values
 *                                           below; --wait: first print "ready", then wait for a
 *                                           line on stdin (a tracer attaches in between)
 *   probe_target paced SPANS BATCH US [--fork]
 *                                           SPANS spans under a root, sleeping US µs after each
 *                                           BATCH: a long run the writer keeps up with; --fork:
 *                                           the spans are made by a forked child
 *   probe_target threads THREADS SPANS      THREADS threads one after another, SPANS spans each,
 *                                           under the main thread's root (states are recycled)
 *
 * Prints key=value lines (pid, child_pid, root, span, ...). Exit 0; 2 on bad usage; 3 if the
 * bridge refused to start; 1 if the program itself failed (thread, fork).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jbench_bridge.h"

/* The values `fire` passes; tests/bridge/probe_test.cpp expects exactly these. */
#define FIRE_SPAN "probe-span"
#define FIRE_PHASE "probe-phase"
#define FIRE_DONE "probe-done"
#define FIRE_COUNTER "probe-counter"
#define FIRE_COUNTER_VALUE (-42)
#define FIRE_GC_GENERATION 2u
#define FIRE_GC_BEFORE 4096u
#define FIRE_GC_AFTER 1024u
#define FIRE_ALLOC_BYTES 96u
#define FIRE_ALLOC_SITE "probe-site"

static int fire(int wait) {
  if (wait) {
    char line[64];
    printf("ready pid=%d\n", (int)getpid());
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin)) return 1;
  }
  jb_canary();
  jb_phase(FIRE_PHASE);
  uint64_t span = jb_span_begin(FIRE_SPAN, 0);
  jb_counter(FIRE_COUNTER, FIRE_COUNTER_VALUE);
  jb_gc_begin(FIRE_GC_GENERATION, FIRE_GC_BEFORE);
  jb_gc_end(FIRE_GC_GENERATION, FIRE_GC_AFTER);
  jb_alloc_sample(FIRE_ALLOC_BYTES, FIRE_ALLOC_SITE);
  jb_span_end(span);
  jb_phase(FIRE_DONE);
  printf("fired pid=%d span=%016" PRIx64 "\n", (int)getpid(), span);
  return 0;
}

static void pause_us(long us) {
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&ts, NULL);
}

static void paced_spans(long spans, long batch, long us) {
  for (long i = 0; i < spans; ++i) {
    jb_span_end(jb_span_begin("paced", 0));
    if (batch > 0 && (i + 1) % batch == 0) pause_us(us);
  }
}

static int paced(long spans, long batch, long us, int in_child) {
  uint64_t root = jb_span_begin("root", 0);
  printf("pid=%d root=%016" PRIx64 "\n", (int)getpid(), root);
  if (!in_child) {
    paced_spans(spans, batch, us);
  } else {
    char traceparent[JB_TRACEPARENT_LEN + 1];
    if (jb_traceparent_format(root, traceparent, sizeof traceparent) < 0) return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
      uint64_t parent = 0;
      if (jb_traceparent_parse(traceparent, &parent) == 0) jb_context_adopt(parent);
      paced_spans(spans, batch, us);
      exit(0); /* the bridge's atexit handler drains the child's last events */
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      return 1;
    }
    printf("child_pid=%d\n", (int)pid);
  }
  jb_span_end(root);
  return 0;
}

struct thread_work {
  uint64_t context;
  long spans;
};

static void* thread_main(void* arg) {
  const struct thread_work* work = arg;
  jb_context_adopt(work->context);
  paced_spans(work->spans, 0, 0);
  return NULL;
}

static int threads(long count, long spans) {
  uint64_t root = jb_span_begin("root", 0);
  struct thread_work work = {jb_context_capture(), spans};
  for (long i = 0; i < count; ++i) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, thread_main, &work) != 0) return 1;
    pthread_join(thread, NULL);
  }
  jb_span_end(root);
  printf("pid=%d root=%016" PRIx64 " threads=%ld\n", (int)getpid(), root, count);
  return 0;
}

static int usage(void) {
  fprintf(stderr,
          "usage: probe_target fire [--wait] | paced SPANS BATCH US [--fork] | "
          "threads THREADS SPANS\n");
  return 2;
}

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "";
  const int is_fire = strcmp(what, "fire") == 0;
  const int is_paced = strcmp(what, "paced") == 0 && argc >= 5;
  const int is_threads = strcmp(what, "threads") == 0 && argc >= 4;
  if (!is_fire && !is_paced && !is_threads) return usage();
  if (jb_init_from_env() != 0) return 3;
  int rc;
  if (is_fire) {
    rc = fire(argc > 2 && strcmp(argv[2], "--wait") == 0);
  } else if (is_paced) {
    rc = paced(atol(argv[2]), atol(argv[3]), atol(argv[4]),
               argc > 5 && strcmp(argv[5], "--fork") == 0);
  } else {
    rc = threads(atol(argv[2]), atol(argv[3]));
  }
  jb_shutdown();
  return rc;
}
