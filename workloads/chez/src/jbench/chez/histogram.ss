;;; Latency histograms in the jbench.latency_histogram/1 format, computed exactly as
;;; core/stats (histogram.h, histogram_json.h) computes them, so the harness can parse,
;;; re-check and merge what this worker writes.
;;;
;;; Buckets: one per value below 32 ns; every octave [2^e, 2^(e+1)), e >= 5, cut into 32 equal
;;; buckets. Quantiles: nearest rank r = max(1, ceil(n * ppm / 10^6)); rank 1 and rank n are the
;;; exact min and max, any other rank the midpoint of its bucket clamped to [min, max].
;;;
;;;   (define h (make-histogram))
;;;   (histogram-record! h 1250)        ; one operation of 1.25 us
;;;   (histogram->json h)               ; => a jobj
(library (jbench chez histogram)
  (export make-histogram histogram-record! histogram-count histogram-sum histogram-max
          histogram->json bucket-index bucket-lower)
  (import (chezscheme) (jbench chez json))

  (define sub-bits 5)
  (define sub-buckets 32)
  (define bucket-count (* sub-buckets (+ (- 64 sub-bits) 1)))  ; 1920

  (define (bucket-index ns)
    (if (< ns sub-buckets)
        ns
        (let* ([e (- (integer-length ns) 1)]
               [sub (- (ash ns (- sub-bits e)) sub-buckets)])
          (+ (* sub-buckets (+ (- e sub-bits) 1)) sub))))

  (define (bucket-lower index)
    (if (< index sub-buckets)
        index
        (let ([e (+ (quotient index sub-buckets) sub-bits -1)]
              [sub (remainder index sub-buckets)])
          (ash (+ sub-buckets sub) (- e sub-bits)))))

  (define (bucket-width index)
    (if (< index sub-buckets)
        1
        (ash 1 (- (+ (quotient index sub-buckets) sub-bits -1) sub-bits))))

  ;; counts: a vector of bucket-count fixnums, allocated once; recording allocates nothing.
  ;; lo is #f until the first value.
  (define-record-type (histogram make-raw-histogram histogram?)
    (fields counts (mutable n) (mutable total) (mutable lo) (mutable hi)))

  (define (make-histogram) (make-raw-histogram (make-vector bucket-count 0) 0 0 #f 0))

  (define (histogram-count h) (histogram-n h))
  (define (histogram-sum h) (histogram-total h))
  (define (histogram-max h) (and (> (histogram-n h) 0) (histogram-hi h)))

  (define (histogram-record! h ns)
    (let ([counts (histogram-counts h)] [i (bucket-index ns)])
      (vector-set! counts i (+ (vector-ref counts i) 1))
      (histogram-n-set! h (+ (histogram-n h) 1))
      (histogram-total-set! h (+ (histogram-total h) ns))
      (let ([lo (histogram-lo h)])
        (when (or (not lo) (< ns lo)) (histogram-lo-set! h ns)))
      (when (> ns (histogram-hi h)) (histogram-hi-set! h ns))))

  (define (nearest-rank n ppm)
    (max 1 (quotient (+ (* n (min ppm 1000000)) 999999) 1000000)))

  (define (quantile h ppm)
    (let ([n (histogram-n h)])
      (if (= n 0)
          #f
          (let ([rank (nearest-rank n ppm)] [lo (histogram-lo h)] [hi (histogram-hi h)])
            (cond
              [(= rank 1) lo]
              [(= rank n) hi]
              [else
               (let loop ([i 0] [seen 0])
                 (let ([seen (+ seen (vector-ref (histogram-counts h) i))])
                   (if (>= seen rank)
                       (let ([mid (+ (bucket-lower i) (quotient (bucket-width i) 2))])
                         (max lo (min hi mid)))
                       (loop (+ i 1) seen))))])))))

  (define (ns-or-null v) (if v (number->string v) 'null))

  (define (histogram->json h)
    (let ([buckets (let loop ([i (- bucket-count 1)] [acc '()])
                     (if (< i 0)
                         (list->vector acc)
                         (let ([c (vector-ref (histogram-counts h) i)])
                           (loop (- i 1)
                                 (if (= c 0)
                                     acc
                                     (cons (vector (number->string (bucket-lower i)) c) acc))))))])
      (jobj "format" "jbench.latency_histogram/1"
            "unit" "ns"
            "sub_bucket_bits" sub-bits
            "count" (histogram-n h)
            "sum_ns" (number->string (histogram-total h))
            "min_ns" (ns-or-null (and (> (histogram-n h) 0) (histogram-lo h)))
            "max_ns" (ns-or-null (histogram-max h))
            "p50_ns" (ns-or-null (quantile h 500000))
            "p90_ns" (ns-or-null (quantile h 900000))
            "p99_ns" (ns-or-null (quantile h 990000))
            "buckets" buckets))))
