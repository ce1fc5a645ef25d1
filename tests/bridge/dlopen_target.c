/*
 * dlopen_target.c — loads libjbench_bridge.so at run time, as an FFI does (Chez Scheme's
 * load-shared-object is dlopen), and records spans from the main thread and two more:
 *
 *   dlopen_target /abs/path/libjbench_bridge.so SPANS
 *
 * A library loaded this way gets its thread-local storage from the little static TLS space left
 * at startup; the bridge must fit in it. Prints spans=N. Exit 0; 2 on bad usage; 3 if the
 * library or a symbol is missing or the bridge refused to start; 1 if a thread failed.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*init_fn)(void);
typedef uint64_t (*begin_fn)(const char*, uint64_t);
typedef void (*end_fn)(uint64_t);
typedef void (*shutdown_fn)(void);

static begin_fn span_begin;
static end_fn span_end;
static long spans;

static void* record_spans(void* unused) {
  (void)unused;
  for (long i = 0; i < spans; ++i) span_end(span_begin("dlopen", 0));
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: dlopen_target LIBRARY SPANS\n");
    return 2;
  }
  spans = atol(argv[2]);
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 3;
  }
  /* POSIX: a function pointer travels through void* from dlsym; copy its bytes. */
  init_fn init;
  shutdown_fn shutdown;
  void* sym[4] = {dlsym(lib, "jb_init_from_env"), dlsym(lib, "jb_span_begin"),
                  dlsym(lib, "jb_span_end"), dlsym(lib, "jb_shutdown")};
  for (int i = 0; i < 4; ++i) {
    if (!sym[i]) {
      fprintf(stderr, "dlsym: %s\n", dlerror());
      return 3;
    }
  }
  *(void**)&init = sym[0];
  *(void**)&span_begin = sym[1];
  *(void**)&span_end = sym[2];
  *(void**)&shutdown = sym[3];
  if (init() != 0) return 3;
  pthread_t threads[2];
  for (int i = 0; i < 2; ++i) {
    if (pthread_create(&threads[i], NULL, record_spans, NULL) != 0) return 1;
  }
  record_spans(NULL);
  for (int i = 0; i < 2; ++i) pthread_join(threads[i], NULL);
  shutdown();
  printf("spans=%ld\n", 3 * spans);
  return 0;
}
