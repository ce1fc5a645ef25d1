;;; The `configure` message of protocol v1 (docs/worker-protocol.md), as the Chez worker reads
;;; it (docs/chez-worker.md, "Configure"). Every problem is reported at once, each as
;;; "path: what is wrong", and unknown keys at any level are errors.
;;;
;;;   (let-values ([(config errors) (parse-configure message)])
;;;     (if config ... (report errors)))
(library (jbench chez config)
  (export parse-configure describe-message
          config-worker-index config-seed config-lane config-connection config-db
          config-ops-per-transaction config-read-ratio config-tree-nodes config-alloc-sample-every
          config-collect-trip-kib config-page-cache-kib config-warmup config-measure
          phase-spec-kind phase-spec-amount
          max-ops-per-transaction max-tree-nodes max-alloc-sample-every min-collect-trip-kib
          max-collect-trip-kib)
  (import (chezscheme) (jbench chez json))

  (define max-ops-per-transaction 100000)
  (define max-tree-nodes 1000000)
  (define max-alloc-sample-every 1000000)
  (define min-collect-trip-kib 64)
  (define max-collect-trip-kib 1048576)  ; 1 GiB between collection requests
  (define max-page-cache-kib 16777216)
  (define max-duration-ms 86400000)
  (define max-operations 1000000000000)
  (define max-u64 #xffffffffffffffff)

  ;; What `jbench-chez-worker describe` prints (docs/worker-protocol.md, "describe"): the
  ;; parameters parse-configure takes, with the limits it checks, for a matrix that names this
  ;; worker by its command (`kind: process`). The harness sends page_cache_kib itself.
  (define (describe-message)
    (define (integer name lo hi default meaning)
      (jobj "name" name "type" "integer" "min" lo "max" hi "default" default "meaning" meaning))
    (jobj "type" "describe" "protocol" 1 "worker" "chez"
          "meaning" "a Chez Scheme program that keeps a live set and allocates, every collection reported through the trace bridge"
          "params"
          (vector
            (integer "ops_per_transaction" 1 max-ops-per-transaction 8
                     "operations in one batch, which is one bridge span")
            (jobj "name" "read_ratio" "type" "number" "min" 0 "max" 1 "default" 0.8
                  "meaning" "fraction of batches that read, in the mixed lane")
            (integer "tree_nodes" 1 max-tree-nodes 512
                     "nodes of the short-lived search tree a tree_build read allocates")
            (integer "alloc_sample_every" 0 max-alloc-sample-every 64
                     "every N-th operation reports its allocated bytes to jb_alloc_sample (0: none)")
            (integer "collect_trip_kib" min-collect-trip-kib max-collect-trip-kib 8192
                     "Chez's collect-trip-bytes in KiB: allocation between collection requests"))
          "traits" (jobj "gc_events" #t "allocations" "runtime")))

  (define-record-type config
    (fields worker-index seed lane connection db ops-per-transaction read-ratio tree-nodes
            alloc-sample-every collect-trip-kib page-cache-kib warmup measure))

  ;; kind: 'duration (amount in ms) or 'operations (amount in operations)
  (define-record-type phase-spec (fields kind amount))

  (define (canonical-u64 v)
    (and (string? v)
         (> (string-length v) 0)
         (<= (string-length v) 20)
         (for-all (lambda (c) (char<=? #\0 c #\9)) (string->list v))
         (or (string=? v "0") (not (char=? (string-ref v 0) #\0)))
         (let ([n (string->number v 10)]) (and (<= n max-u64) n))))

  (define (parse-configure m)
    (let ([errors '()])
      (define (fail! path what) (set! errors (cons (string-append path ": " what) errors)))
      ;; Every key of `obj` must be allowed; every required one present. #f if obj is unusable.
      (define (keys! obj path allowed required)
        (cond
          [(not (jobj? obj)) (fail! path "must be an object") #f]
          [else
           (for-each (lambda (k)
                       (unless (member k allowed) (fail! (string-append path "." k) "unknown key")))
                     (jobj-keys obj))
           (let ([missing (filter (lambda (k) (not (jobj-has? obj k))) required)])
             (for-each (lambda (k) (fail! (string-append path "." k) "missing")) missing)
             (null? missing))]))
      (define (integer! v path lo hi)
        (if (and (integer? v) (exact? v) (<= lo v hi))
            v
            (begin (fail! path (format "must be an integer in ~a..~a" lo hi)) #f)))
      (define (choice! v path names)
        (if (and (string? v) (member v names))
            v
            (begin (fail! path (format "must be one of ~{\"~a\"~^, ~}" names)) #f)))
      (define (phase! v path min)
        (and (keys! v path '("duration_ms" "operations") '())
             (cond
               [(eq? (jobj-has? v "duration_ms") (jobj-has? v "operations"))
                (fail! path "must hold exactly one of duration_ms or operations")
                #f]
               [(jobj-has? v "duration_ms")
                (let ([ms (integer! (jobj-ref v "duration_ms" #f) (string-append path ".duration_ms")
                                    min max-duration-ms)])
                  (and ms (make-phase-spec 'duration ms)))]
               [else
                (let ([n (integer! (jobj-ref v "operations" #f) (string-append path ".operations")
                                   min max-operations)])
                  (and n (make-phase-spec 'operations n)))])))
      (define top-keys '("type" "worker_index" "seed" "lane" "connection" "db" "params" "phases"))
      (if (not (keys! m "configure" top-keys top-keys))
          (values #f (reverse errors))
          (let* ([get (lambda (k) (jobj-ref m k #f))]
                 [worker-index (integer! (get "worker_index") "worker_index" 0 #xffffffff)]
                 [seed (or (canonical-u64 (get "seed"))
                           (begin (fail! "seed" "must be a uint64 as a canonical decimal string, e.g. \"42\"")
                                  #f))]
                 [lane (choice! (get "lane") "lane" '("writer" "reader" "mixed"))]
                 [connection
                  (let ([c (get "connection")])
                    (cond
                      [(equal? c "persistent") c]
                      [(equal? c "cold")
                       (fail! "connection"
                              "\"cold\" is not supported: a Chez worker keeps one live set for the whole run, so only \"persistent\" is accepted")
                       #f]
                      [else (fail! "connection" "must be \"persistent\"") #f]))]
                 [db (let ([d (get "db")])
                       (if (and (string? d) (> (string-length d) 0) (char=? (string-ref d 0) #\/)
                                (not (memv #\nul (string->list d))))
                           d
                           (begin (fail! "db" "must be an absolute path") #f)))]
                 [p (get "params")]
                 [mixed (equal? (get "lane") "mixed")]
                 [param-keys '("ops_per_transaction" "tree_nodes" "alloc_sample_every"
                               "collect_trip_kib" "page_cache_kib")]
                 [params-keys-checked (keys! p "params" (cons "read_ratio" param-keys) param-keys)]
                 ;; Present values are checked even when others are missing: all errors at once.
                 [param (lambda (k lo hi)
                          (and (jobj? p) (jobj-has? p k)
                               (integer! (jobj-ref p k #f) (string-append "params." k) lo hi)))]
                 [ops (param "ops_per_transaction" 1 max-ops-per-transaction)]
                 [tree-nodes (param "tree_nodes" 1 max-tree-nodes)]
                 [sample-every (param "alloc_sample_every" 0 max-alloc-sample-every)]
                 [trip-kib (param "collect_trip_kib" min-collect-trip-kib max-collect-trip-kib)]
                 [cache-kib (param "page_cache_kib" 1 max-page-cache-kib)]
                 [read-ratio
                  (and (jobj? p)
                       (cond
                         [mixed
                          (let ([r (jobj-ref p "read_ratio" #f)])
                            (if (and (real? r) (<= 0 r 1))
                                (inexact r)
                                (begin (fail! "params.read_ratio" "the mixed lane needs a number in 0.0..1.0")
                                       #f)))]
                         [(jobj-has? p "read_ratio")
                          (fail! "params.read_ratio" "applies only to the mixed lane; remove it")
                          #f]
                         [(equal? (get "lane") "reader") 1.0]
                         [else 0.0]))]
                 [ph (get "phases")]
                 [phases-keys-checked (keys! ph "phases" '("warmup" "measure") '("warmup" "measure"))]
                 [phase-at (lambda (k min)
                             (and (jobj? ph) (jobj-has? ph k)
                                  (phase! (jobj-ref ph k #f) (string-append "phases." k) min)))]
                 [warmup (phase-at "warmup" 0)]
                 [measure (phase-at "measure" 1)])
            (if (null? errors)
                (values (make-config worker-index seed lane connection db ops read-ratio tree-nodes
                                     sample-every trip-kib cache-kib warmup measure)
                        '())
                (values #f (reverse errors))))))))
