;;; Protocol v1, the worker side (docs/worker-protocol.md): a fixed sequence of blocking reads on
;;; stdin, each answered on stdout. Nothing of the workload happens before `configure`; nothing
;;; is read from stdin while a phase runs. `exit` is accepted at every wait; EOF ends the worker
;;; (exit 3 before the result was delivered, a normal teardown and bye after it).
;;;
;;;   (serve "/abs/lib/libjbench_bridge.so")   ; => the process exit code
(library (jbench chez serve)
  (export serve)
  (import (chezscheme) (jbench chez json) (jbench chez native) (jbench chez bridge)
          (jbench chez protocol) (jbench chez config) (jbench chez dataset) (jbench chez gc)
          (jbench chez workload) (jbench chez phase) (jbench chez results))

  (define harness-types '("configure" "canary" "start" "measure" "exit"))

  (define (now) (number->string (monotonic-ns)))

  (define (hex bv)
    (apply string-append
           (map (lambda (b)
                  (string-append (if (< b 16) "0" "") (string-downcase (number->string b 16))))
                (bytevector->u8-list bv))))

  (define (all-zero? bv) (for-all zero? (bytevector->u8-list bv)))

  ;; 128 bits naming this incarnation: the bridge's when it is on (so the raw events and the
  ;; hello agree), otherwise the kernel's random source.
  (define (make-runtime-id)
    (let ([id (if (= (bridge-mode) 0) (random-bytes 16) (bridge-runtime-id))])
      (hex (if (all-zero? id) (random-bytes 16) id))))

  (define (mode-name m)
    (case m [(0) "off"] [(1) "no-consumer"] [(2) "light"] [(3) "full"] [else "unknown"]))

  (define phase-startup (bridge-name "startup"))
  (define phase-warmup (bridge-name "warmup"))
  (define phase-measure (bridge-name "measure"))
  (define phase-teardown (bridge-name "teardown"))

  (define (condition->text e)
    (call-with-string-output-port (lambda (p) (display-condition e p))))

  (define (session in runtime-id return)
    (define result-sent #f)
    (define live-set #f)
    (define workload #f)

    (define (send! m)
      (unless (send-json! m)
        (log-line "cannot write to stdout (the harness is gone); exiting")
        (return exit-stdout-closed)))

    (define (protocol-error! message . errors)
      (log-line message)
      (send! (if (null? errors)
                 (jobj "type" "error" "message" message)
                 (jobj "type" "error" "message" message "errors" (list->vector (car errors)))))
      (return exit-protocol-error))

    ;; The bridge's teardown phase, once: right after the last measured operation (building and
    ;; sending the figures is not the workload's, and a counted run stops counting there:
    ;; docs/trace-modes.md, "counted"), or at finish! if the session ends before measuring.
    (define in-teardown #f)
    (define (enter-teardown!)
      (unless in-teardown
        (bridge-phase phase-teardown)
        (set! in-teardown #t)))

    ;; Teardown: drop the live set, close the bridge's file (its trailer), say bye, exit 0.
    (define (finish!)
      (enter-teardown!)
      (let ([t0 (monotonic-ns)])
        (set! workload #f)
        (set! live-set #f)
        (let ([teardown-ns (- (monotonic-ns) t0)])
          (bridge-shutdown!)
          (send! (jobj "type" "bye" "t_ns" (now) "teardown_ns" (number->string teardown-ns)))
          (return exit-ok))))

    ;; The next message, which must be of type `expected` (or "exit", which ends the session).
    (define (await expected)
      (let ([line (read-line! in)])
        (cond
          [(eq? line 'eof)
           (when result-sent (finish!))
           (log-line (format "stdin ended while waiting for ~a; exiting with ~a" expected
                             exit-stdin-eof))
           (return exit-stdin-eof)]
          [(eq? line 'too-long)
           (protocol-error! (format "a line on stdin exceeds ~a bytes" max-line-bytes))]
          [else
           (let* ([m (json-parse line)] [type (and (jobj? m) (jobj-ref m "type" #f))])
             (unless (string? type)
               (protocol-error! "malformed message: expected one JSON object with a string \"type\""))
             (unless (member type harness-types)
               (protocol-error! (format "unknown message type \"~a\"" type)))
             (unless (or (string=? type expected) (string=? type "exit"))
               (protocol-error! (format "unexpected \"~a\" while waiting for \"~a\"" type expected)))
             (unless (or (string=? type "configure") (= (jobj-count m) 1))
               (protocol-error! (format "\"~a\" takes no fields besides \"type\"" type)))
             (when (string=? type "exit") (finish!))
             m)])))

    (send! (jobj "type" "hello" "protocol" protocol-version "worker" "chez"
                 "pid" (process-id) "runtime_id" runtime-id "bridge" (mode-name (bridge-mode))
                 "clock" "CLOCK_MONOTONIC" "t_ns" (now)))

    (let-values ([(config errors) (parse-configure (await "configure"))])
      (unless config (protocol-error! "invalid configure" errors))
      (let ([t0 (monotonic-ns)])
        (collect-trip-bytes (* 1024 (config-collect-trip-kib config)))
        (let-values ([(loaded why) (load-dataset (config-db config))])
          (unless loaded (protocol-error! why))
          (set! live-set loaded))
        (let ([open-ns (- (monotonic-ns) t0)])
          (set! workload (make-workload live-set (config-seed config) (config-worker-index config)
                                        (string->symbol (config-lane config))
                                        (config-read-ratio config)
                                        (config-ops-per-transaction config)
                                        (config-tree-nodes config)))
          (send! (jobj "type" "ready" "t_ns" (now)
                       ;; Loading the live set from the dataset file: this worker's "open".
                       "open_ns" (number->string open-ns)
                       "setup_ns" (number->string (- (monotonic-ns) t0))
                       "live_set" (jobj "items" (live-set-rows live-set)
                                        "row_bytes" (live-set-row-bytes live-set)
                                        "heap_bytes" (bytes-allocated))))))

      (await "canary")
      (bridge-canary)
      (let* ([path (string-append "/jbench-canary/" runtime-id)] [e (faccessat-canary path)])
        (send! (jobj "type" "canary_done" "t_ns" (now) "syscall" "faccessat" "path" path
                     "errno" (errno-name e))))

      (let ([sample? (make-alloc-sampler (config-alloc-sample-every config))])
        (await "start")
        (bridge-phase phase-warmup)
        (let ([warmup (run-phase! workload (config-warmup config) sample?)])
          (send! (jobj-append (jobj "type" "warmup_done" "t_ns" (now)) (phase-counts->json warmup))))

        (await "measure")
        (bridge-phase phase-measure)
        (let ([measure (run-phase! workload (config-measure config) sample?)])
          (enter-teardown!)
          (send! (jobj "type" "measure_done" "t_ns" (now)
                       "t_start_ns" (number->string (phase-t-start measure))
                       "t_end_ns" (number->string (phase-t-end measure))
                       "t_finished_ns" (number->string (phase-t-finished measure))
                       "operations" (phase-operations measure)
                       "straddled" (phase-straddled measure)))
          (send! (result->json config live-set measure runtime-id (mode-name (bridge-mode))))
          (set! result-sent #t)))

      ;; Only "exit" (or EOF, which now means the same) is accepted here; both end in finish!.
      (await "exit")
      exit-internal))

  (define (serve bridge-path)
    ;; A vanished harness must surface as EPIPE on write (exit 4), not kill the worker silently.
    (ignore-sigpipe!)
    (bridge-load! bridge-path)
    (let ([rc (bridge-init!)])
      (if (not (= rc 0))
          ;; The bridge printed its own line on stderr; the harness gets the reason too.
          (let ([message (string-append "the trace bridge refused its environment: "
                                        (bridge-error-name rc))])
            (log-line message)
            (send-json! (jobj "type" "error" "message" message))
            exit-protocol-error)
          (begin
            (bridge-phase phase-startup)
            (install-gc-reporting!)
            (let ([code (call/cc
                          (lambda (return)
                            (guard (e [#t (let ([text (condition->text e)])
                                            (log-line (string-append "internal error: " text))
                                            (send-json! (jobj "type" "error" "message"
                                                              (string-append "internal error: " text)))
                                            exit-internal)])
                              (session (make-line-reader (standard-input-port)) (make-runtime-id)
                                       return))))])
              (bridge-shutdown!)
              code))))))
