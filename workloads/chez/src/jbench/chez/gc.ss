;;; Every garbage collection of the worker, reported and counted.
;;;
;;; Chez asks for a collection through (collect-request-handler) about every
;;; (collect-trip-bytes) bytes of allocation; the handler must collect itself. Ours chooses the
;;; generation with the default policy -- on the n-th request, the highest g <=
;;; (collect-maximum-generation) such that radix^g divides n, radix = (collect-generation-radix)
;;; -- and calls (collect g), so the generation it reports is the one really collected. Around
;;; the collection it calls jb_gc_begin(g, bytes in use) and jb_gc_end(g, bytes in use), and
;;; adds the pause (CLOCK_MONOTONIC, ns) to the process totals and to the current phase's.
;;;
;;;   (install-gc-reporting!)
;;;   (let ([g (make-gc-stats)]) (gc-stats-open! g) ... (gc-stats-close! g) (gc-stats->json g))
;;;   (allocated-bytes-total)   ; bytes allocated since the process started, cheaply
(library (jbench chez gc)
  (export install-gc-reporting! make-gc-stats gc-stats-open! gc-stats-close! gc-stats->json
          gc-stats-collections gc-stats-pause-total gc-totals allocated-bytes-total
          generation-for-request)
  (import (chezscheme) (jbench chez json) (jbench chez native) (jbench chez bridge)
          (jbench chez histogram))

  (define-record-type (gc-stats make-raw-gc-stats gc-stats?)
    (fields (mutable collections) by-generation pauses (mutable pause-total) (mutable pause-max)
            (mutable reclaimed) (mutable runtime-start) (mutable heap-start) (mutable runtime-end)
            (mutable heap-end)))

  (define (make-gc-stats)
    (make-raw-gc-stats 0 (make-vector (+ (collect-maximum-generation) 1) 0) (make-histogram) 0 0
                       0 (collections) (bytes-allocated) #f #f))

  ;; A phase's count opens and closes with collection requests held off, and each returns the
  ;; CLOCK_MONOTONIC reading taken inside, which the phase uses as its t_start_ns and
  ;; t_finished_ns. So the phase counts exactly the collections that ran between those two
  ;; instants, and `collections` and `runtime_collections` count the same ones.
  (define (gc-stats-open! s)
    (critical-section
      (gc-stats-runtime-start-set! s (collections))
      (gc-stats-heap-start-set! s (bytes-allocated))
      (set! sink s)
      (monotonic-ns)))

  (define (gc-stats-close! s)
    (critical-section
      (let ([t (monotonic-ns)])
        (set! sink #f)
        (gc-stats-runtime-end-set! s (collections))
        (gc-stats-heap-end-set! s (bytes-allocated))
        t)))

  ;; The process's totals (from install-gc-reporting! on) and the current phase's, or #f.
  (define totals #f)
  (define sink #f)
  (define (gc-totals) totals)

  ;; Bytes given back by every collection so far: with the heap in use now, the bytes ever
  ;; allocated, without the cost of (statistics). Both are read with collection requests held
  ;; off, so a collection cannot fall between them and be counted twice.
  (define reclaimed-total 0)
  (define (allocated-bytes-total) (critical-section (+ (bytes-allocated) reclaimed-total)))

  (define requests 0)

  (define (generation-for-request n)
    (let ([radix (collect-generation-radix)] [top (collect-maximum-generation)])
      (let loop ([g 0] [step radix])
        (if (and (< g top) (= 0 (modulo n step))) (loop (+ g 1) (* step radix)) g))))

  (define (account! s g pause reclaimed)
    (gc-stats-collections-set! s (+ (gc-stats-collections s) 1))
    (let ([v (gc-stats-by-generation s)]) (vector-set! v g (+ (vector-ref v g) 1)))
    (histogram-record! (gc-stats-pauses s) pause)
    (gc-stats-pause-total-set! s (+ (gc-stats-pause-total s) pause))
    (when (> pause (gc-stats-pause-max s)) (gc-stats-pause-max-set! s pause))
    (gc-stats-reclaimed-set! s (+ (gc-stats-reclaimed s) reclaimed)))

  (define (on-collect-request)
    (set! requests (+ requests 1))
    (let* ([g (generation-for-request requests)] [before (bytes-allocated)])
      (bridge-gc-begin g before)
      (let ([t0 (monotonic-ns)])
        (collect g)
        (let* ([t1 (monotonic-ns)] [after (bytes-allocated)])
          (bridge-gc-end g after)
          (set! reclaimed-total (+ reclaimed-total (- before after)))
          (account! totals g (- t1 t0) (- before after))
          (when sink (account! sink g (- t1 t0) (- before after)))))))

  (define (install-gc-reporting!)
    (set! totals (make-gc-stats))
    (collect-request-handler on-collect-request))

  (define (gc-stats->json s)
    (let ([by-gen (gc-stats-by-generation s)])
      (jobj "collections" (gc-stats-collections s)
            "by_generation"
            (apply jobj (let loop ([g (- (vector-length by-gen) 1)] [acc '()])
                          (if (< g 0)
                              acc
                              (loop (- g 1)
                                    (cons* (number->string g) (vector-ref by-gen g) acc)))))
            ;; What the runtime itself counted: equal to `collections` unless something collected
            ;; without going through the handler.
            "runtime_collections" (- (or (gc-stats-runtime-end s) (collections))
                                     (gc-stats-runtime-start s))
            "pause_total_ns" (number->string (gc-stats-pause-total s))
            "pause_max_ns" (number->string (gc-stats-pause-max s))
            "pause_ns" (histogram->json (gc-stats-pauses s))
            "bytes_reclaimed" (gc-stats-reclaimed s)
            "heap_bytes_start" (gc-stats-heap-start s)
            "heap_bytes_end" (or (gc-stats-heap-end s) (bytes-allocated))))))
