;;; The jbench trace bridge (bridge/include/jbench_bridge.h, docs/bridge.md) seen from Chez.
;;;
;;;   (bridge-load! "/abs/build/lib/libjbench_bridge.so")  ; load-shared-object + bind
;;;   (bridge-init!)            ; jb_init_from_env: 0, or a JB_ERR_* code (negative)
;;;   (let ([s (bridge-span-begin name-bytes)]) ... (bridge-span-end s))
;;;   (bridge-shutdown!)        ; writes the raw file's trailer
;;;
;;; Names (spans, phases, allocation sites) are passed as NUL-terminated bytevectors made once
;;; with `bridge-name`, so an event costs no conversion and no allocation; the bridge copies
;;; the bytes during the call and keeps no pointer (the collector may move the bytevector
;;; afterwards, never during a foreign call).
(library (jbench chez bridge)
  (export bridge-load! bridge-init! bridge-mode bridge-shutdown! bridge-runtime-id bridge-name
          bridge-span-begin bridge-span-end bridge-gc-begin bridge-gc-end bridge-alloc-sample
          bridge-counter
          bridge-phase bridge-canary bridge-abi-version bridge-error-name)
  (import (chezscheme))

  (define (bridge-name s) (string->utf8 (string-append s "\x0;")))

  ;; Bound by bridge-load!; until then every entry point is an error, so a missing load is
  ;; loud instead of silently untraced.
  (define (unbound . _) (error 'bridge "libjbench_bridge.so was not loaded"))
  (define jb-abi-version unbound)
  (define jb-init-from-env unbound)
  (define jb-mode unbound)
  (define jb-shutdown unbound)
  (define jb-runtime-id unbound)
  (define jb-span-begin unbound)
  (define jb-span-end unbound)
  (define jb-gc-begin unbound)
  (define jb-gc-end unbound)
  (define jb-alloc-sample unbound)
  (define jb-counter unbound)
  (define jb-phase unbound)
  (define jb-canary unbound)

  (define (bridge-load! path)
    (load-shared-object path)
    (set! jb-abi-version (foreign-procedure "jb_abi_version" () unsigned-32))
    (set! jb-init-from-env (foreign-procedure "jb_init_from_env" () int))
    (set! jb-mode (foreign-procedure "jb_mode" () int))
    (set! jb-shutdown (foreign-procedure "jb_shutdown" () void))
    (set! jb-runtime-id (foreign-procedure "jb_runtime_id" (u8*) void))
    (set! jb-span-begin (foreign-procedure "jb_span_begin" (u8* unsigned-64) unsigned-64))
    (set! jb-span-end (foreign-procedure "jb_span_end" (unsigned-64) void))
    (set! jb-gc-begin (foreign-procedure "jb_gc_begin" (unsigned-32 unsigned-64) void))
    (set! jb-gc-end (foreign-procedure "jb_gc_end" (unsigned-32 unsigned-64) void))
    (set! jb-alloc-sample (foreign-procedure "jb_alloc_sample" (unsigned-64 u8*) void))
    (set! jb-counter (foreign-procedure "jb_counter" (u8* integer-64) void))
    (set! jb-phase (foreign-procedure "jb_phase" (u8*) void))
    (set! jb-canary (foreign-procedure "jb_canary" () void)))

  ;; (major . minor) of the library actually loaded.
  (define (bridge-abi-version)
    (let ([v (jb-abi-version)]) (cons (ash v -16) (logand v #xffff))))

  (define (bridge-init!) (jb-init-from-env))
  (define (bridge-mode) (jb-mode))
  (define (bridge-shutdown!) (jb-shutdown))

  ;; The 128-bit runtime id as 16 bytes; all zero while the mode is off.
  (define (bridge-runtime-id)
    (let ([bv (make-bytevector 16 0)]) (jb-runtime-id bv) bv))

  (define (bridge-span-begin name) (jb-span-begin name 0))
  (define (bridge-span-end id) (jb-span-end id))
  (define (bridge-gc-begin generation bytes) (jb-gc-begin generation bytes))
  (define (bridge-gc-end generation bytes) (jb-gc-end generation bytes))
  (define (bridge-alloc-sample bytes site) (jb-alloc-sample bytes site))
  ;; The project's own counter `name` takes `value` (recorded in full mode: docs/bridge.md).
  (define (bridge-counter name value) (jb-counter name value))
  (define (bridge-phase name) (jb-phase name))
  (define (bridge-canary) (jb-canary))

  ;; The JB_ERR_* codes of jb_init_from_env, for messages.
  (define (bridge-error-name code)
    (case code
      [(-1) "JB_ERR_BAD_MODE (JBENCH_BRIDGE_MODE is not off, no-consumer, light or full)"]
      [(-2) "JB_ERR_NO_OUT (light and full need JBENCH_BRIDGE_OUT)"]
      [(-3) "JB_ERR_OPEN (JBENCH_BRIDGE_OUT cannot be created; it must not exist yet)"]
      [(-4) "JB_ERR_ALREADY (the bridge was already initialised)"]
      [(-5) "JB_ERR_RESOURCE (memory, /proc/self/stat or the random source unavailable)"]
      [else (string-append "error " (number->string code))])))
