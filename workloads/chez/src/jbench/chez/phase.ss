;;; Running one phase (warmup or measure) and counting it, with the rules of protocol v1
;;; (docs/worker-protocol.md, "Phases and counting"):
;;; - duration phase: the window is [t_start, t_start + duration]; no operation starts at or
;;;   after the deadline (the start reading is the one compared); an operation that ends after
;;;   it is executed but not counted (`straddled`, at most one per phase); the batch in flight
;;;   ends there.
;;; - operation-count phase: exactly N counted operations (the last batch may be shorter);
;;;   t_end = t_finished.
;;; Each batch is one bridge span (chez.read_batch / chez.write_batch) and one value of the
;;; counter `bytes_allocated` (what the batch allocated, by Chez's own accounting); every
;;; alloc_sample_every-th operation is reported to jb_alloc_sample with the bytes it allocated.
;;;
;;;   (define stats (run-phase! workload (config-measure config) sampler))
;;;   (phase-counts->json stats)
(library (jbench chez phase)
  (export run-phase! make-alloc-sampler phase-counts->json phase-reads phase-writes
          phase-operations phase-t-start phase-t-end phase-t-finished phase-straddled
          phase-latency phase-transaction-latency phase-cpu-user phase-cpu-system)
  (import (chezscheme) (jbench chez json) (jbench chez native) (jbench chez bridge)
          (jbench chez histogram) (jbench chez gc) (jbench chez config) (jbench chez workload))

  (define-record-type (phase make-raw-phase phase?)
    (fields (mutable t-start) (mutable t-end) (mutable t-finished) (mutable first-op-start)
            (mutable last-op-end) counts latency transaction-latency (mutable transactions)
            (mutable read-transactions) (mutable write-transactions)
            (mutable transactions-straddled) (mutable straddled) (mutable digest)
            (mutable allocated) gc (mutable cpu-user) (mutable cpu-system)))

  (define (make-phase)
    (make-raw-phase 0 0 0 #f #f (make-vector op-type-count 0)
                    (let ([v (make-vector op-type-count)])
                      (do ([t 0 (+ t 1)]) ((= t op-type-count) v)
                        (vector-set! v t (make-histogram))))
                    (make-histogram) 0 0 0 0 0 0 0 (make-gc-stats) 0 0))

  (define (sum-types p pred)
    (let loop ([t 0] [n 0])
      (if (= t op-type-count)
          n
          (loop (+ t 1) (if (pred t) (+ n (vector-ref (phase-counts p) t)) n)))))
  (define (phase-operations p) (sum-types p (lambda (t) #t)))
  (define (phase-writes p) (sum-types p op-type-write?))
  (define (phase-reads p) (sum-types p (lambda (t) (not (op-type-write? t)))))

  (define read-span (bridge-name "chez.read_batch"))
  (define write-span (bridge-name "chez.write_batch"))
  (define allocated-counter (bridge-name "bytes_allocated"))

  ;; Samples every `every`-th executed operation across phases (0 = never).
  (define (make-alloc-sampler every)
    (let ([n 0])
      (lambda ()
        (and (> every 0)
             (begin (set! n (+ n 1)) (= 0 (modulo n every)))))))

  (define (count-op! p op t0 t1 result)
    (let ([t (vector-ref op 0)])
      (vector-set! (phase-counts p) t (+ (vector-ref (phase-counts p) t) 1))
      (histogram-record! (vector-ref (phase-latency p) t) (- t1 t0))
      (unless (phase-first-op-start p) (phase-first-op-start-set! p t0))
      (phase-last-op-end-set! p t1)
      (phase-digest-set! p (fxlogand (fx+ (fx* (phase-digest p) 31) result) #xfffffffffff))))

  ;; Runs one batch; returns how many of its operations were counted.
  (define (run-batch! w p writes ops limit deadline sample?)
    (let ([span (bridge-span-begin (if writes write-span read-span))] [b0 (monotonic-ns)]
          [allocated0 (allocated-bytes-total)])
      (let loop ([k 0] [counted 0])
        (let ([t0 (and (< k limit) (monotonic-ns))])
          (if (and t0 (or (not deadline) (< t0 deadline)))
              (let* ([op (vector-ref ops k)]
                     [sampled (sample?)]
                     [a0 (and sampled (allocated-bytes-total))]
                     [result (workload-run-op! w op)]
                     [t1 (monotonic-ns)])
                (when sampled
                  (bridge-alloc-sample (- (allocated-bytes-total) a0)
                                       (op-site-name (vector-ref op 0))))
                (if (and deadline (> t1 deadline))
                    (begin (phase-straddled-set! p (+ (phase-straddled p) 1))
                           (loop (+ k 1) counted))
                    (begin (count-op! p op t0 t1 result)
                           (loop (+ k 1) (+ counted 1)))))
              (let ([b1 (monotonic-ns)])
                (bridge-counter allocated-counter (- (allocated-bytes-total) allocated0))
                (bridge-span-end span)
                ;; A batch cut before its first operation did nothing: it is not a transaction.
                (when (> k 0)
                  (if (and deadline (> b1 deadline))
                      (phase-transactions-straddled-set! p (+ (phase-transactions-straddled p) 1))
                      (begin
                        (phase-transactions-set! p (+ (phase-transactions p) 1))
                        (if writes
                            (phase-write-transactions-set! p (+ (phase-write-transactions p) 1))
                            (phase-read-transactions-set! p (+ (phase-read-transactions p) 1)))
                        (histogram-record! (phase-transaction-latency p) (- b1 b0)))))
                counted))))))

  (define (run-phase! w spec sample?)
    (let ([p (make-phase)])
      (let-values ([(user0 system0) (cpu-times)])
        (let* ([a0 (allocated-bytes-total)]
               [t-start (gc-stats-open! (phase-gc p))]
               [deadline (and (eq? (phase-spec-kind spec) 'duration)
                              (+ t-start (* (phase-spec-amount spec) 1000000)))])
          (phase-t-start-set! p t-start)
          (let loop ([remaining (and (eq? (phase-spec-kind spec) 'operations)
                                     (phase-spec-amount spec))])
            (when (and (or (not remaining) (> remaining 0))
                       (or (not deadline) (< (monotonic-ns) deadline)))
              (let-values ([(writes ops) (workload-next-batch! w)])
                (let ([limit (if remaining (min remaining (vector-length ops)) (vector-length ops))])
                  (let ([counted (run-batch! w p writes ops limit deadline sample?)])
                    (loop (and remaining (- remaining counted))))))))
          (let ([t-finished (gc-stats-close! (phase-gc p))])
            (phase-t-finished-set! p t-finished)
            (phase-t-end-set! p (if deadline (min deadline t-finished) t-finished))
            (phase-allocated-set! p (- (allocated-bytes-total) a0))
            (let-values ([(user1 system1) (cpu-times)])
              (phase-cpu-user-set! p (- user1 user0))
              (phase-cpu-system-set! p (- system1 system0)))
            p)))))

  (define (ns v) (if v (number->string v) 'null))

  (define (phase-counts->json p)
    (jobj "t_start_ns" (ns (phase-t-start p))
          "t_end_ns" (ns (phase-t-end p))
          "t_finished_ns" (ns (phase-t-finished p))
          "first_op_start_ns" (ns (phase-first-op-start p))
          "last_op_end_ns" (ns (phase-last-op-end p))
          "operations" (phase-operations p)
          "operations_by_type"
          (apply jobj (let loop ([t (- op-type-count 1)] [acc '()])
                        (if (< t 0)
                            acc
                            (loop (- t 1)
                                  (cons* (op-type-name t) (vector-ref (phase-counts p) t) acc)))))
          "reads" (phase-reads p)
          "writes" (phase-writes p)
          "transactions" (phase-transactions p)
          "read_transactions" (phase-read-transactions p)
          "write_transactions" (phase-write-transactions p)
          "transactions_straddled" (phase-transactions-straddled p)
          "straddled" (phase-straddled p)
          ;; Nothing in this workload can fail or be retried; the keys keep the protocol's shape.
          "retries" 0
          "errors" (jobj)
          "aborted" 'null
          "result_digest" (phase-digest p)
          "allocated_bytes" (phase-allocated p)
          "gc" (gc-stats->json (phase-gc p)))))
