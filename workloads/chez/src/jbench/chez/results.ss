;;; The `result` message of the measure phase (manifests/worker-result.schema.json): the
;;; protocol's common fields with the Chez worker's operation types, plus what only a GC runtime
;;; has -- the phase's collections, pauses and allocation (`gc`, `allocated_bytes`).
;;;
;;;   (result->json config live-set measure runtime-id bridge-mode)
(library (jbench chez results)
  (export result->json lane-conditions)
  (import (chezscheme) (jbench chez json) (jbench chez config) (jbench chez dataset)
          (jbench chez histogram) (jbench chez phase) (jbench chez protocol)
          (jbench chez workload))

  ;; A worker may do nothing its lane forbids: a writer never reads, a reader never writes.
  ;; Doing nothing at all is starvation, which the summary counts, not a violation; a mixed
  ;; worker's own mix is not checked (a short window may hold one kind only: the harness checks
  ;; the run's aggregate), but a mixed stream that cannot mix (read_ratio 0 or 1) is refused.
  (define (lane-conditions lane read-ratio p)
    (let* ([reads (phase-reads p)] [writes (phase-writes p)]
           [why (cond [(and (string=? lane "writer") (> reads 0)) "a writer may not read"]
                      [(and (string=? lane "reader") (> writes 0)) "a reader may not write"]
                      [(and (string=? lane "mixed") (or (<= read-ratio 0) (>= read-ratio 1)))
                       (format "a mixed lane with read_ratio ~a cannot mix" read-ratio)]
                      [else #f])])
      (if why
          (list (jobj "kind" "lane_violation"
                      "message" (format "lane ~a counted ~a reads and ~a writes in the measure phase: ~a"
                                        lane reads writes why)))
          '())))

  (define (result->json config live-set p runtime-id bridge-mode)
    (let* ([conditions (lane-conditions (config-lane config) (config-read-ratio config) p)]
           [window (- (phase-t-end p) (phase-t-start p))]
           [latency (apply jobj
                           (append
                             (let loop ([t (- op-type-count 1)] [acc '()])
                               (if (< t 0)
                                   acc
                                   (loop (- t 1)
                                         (cons* (op-type-name t)
                                                (histogram->json (vector-ref (phase-latency p) t))
                                                acc))))
                             (list "transaction" (histogram->json (phase-transaction-latency p)))))])
      (jobj-append
        (jobj "type" "result"
              "protocol" protocol-version
              "worker" "chez"
              "worker_index" (config-worker-index config)
              "runtime_id" runtime-id
              "status" (if (null? conditions) "ok" "error")
              "conditions" (list->vector conditions)
              "lane" (config-lane config)
              "connection" (config-connection config)
              "window_ns" (number->string window)
              ;; Counted operations over the counting window; null for an empty window.
              "throughput_ops_per_s" (if (= window 0)
                                         'null
                                         (inexact (/ (* (phase-operations p) 1000000000) window)))
              "latency_ns" latency
              "rusage" (jobj "user_ns" (number->string (phase-cpu-user p))
                             "system_ns" (number->string (phase-cpu-system p)))
              "dataset" (jobj "format" dataset-format
                              "rows" (live-set-rows live-set)
                              "row_bytes" (live-set-row-bytes live-set)
                              "seed" (number->string (live-set-seed live-set)))
              "params" (jobj "ops_per_transaction" (config-ops-per-transaction config)
                             "read_ratio" (config-read-ratio config)
                             "tree_nodes" (config-tree-nodes config)
                             "alloc_sample_every" (config-alloc-sample-every config)
                             "collect_trip_kib" (config-collect-trip-kib config)
                             ;; Accepted because the harness sends every dataset cell's
                             ;; page_cache_kib; this worker has no page cache.
                             "page_cache_kib_ignored" (config-page-cache-kib config))
              "runtime" (jobj "implementation" "Chez Scheme"
                              "version" (scheme-version-number-string)
                              "collect_trip_bytes" (collect-trip-bytes)
                              "collect_generation_radix" (collect-generation-radix)
                              "collect_maximum_generation" (collect-maximum-generation)
                              "bridge_mode" bridge-mode))
        (phase-counts->json p))))

  (define (scheme-version-number-string)
    (let-values ([(major minor patch) (scheme-version-number)])
      (format "~a.~a.~a" major minor patch))))
