;;; The operations of the Chez worker and the stream that chooses them (docs/chez-worker.md,
;;; "Operations" and "Lanes").
;;;
;;; The live set (dataset.ss) is a vector of items that survives the whole run, so it ages into
;;; the oldest generations; operations either read it while building short-lived structures
;;; (reads) or replace and mutate its items (writes), which turns old objects into garbage and
;;; stores young objects into old ones. Every operation returns a fixnum that is folded into the
;;; phase's digest, so the work cannot be optimised away and two runs can be compared.
;;;
;;; The stream is a pure function of (seed, worker_index) and the configuration:
;;; SplitMix64(combine64(seed, worker_index)). Per batch: in the mixed lane one unit draw u (the
;;; batch reads iff u < read_ratio); then ops_per_transaction operations, each drawn before the
;;; batch runs (so drawing is never inside an operation's latency):
;;;   read:  below(5): 0,1 lookup, 2 range_sort, 3,4 tree_build; then index = below(rows)
;;;   write: below(2): 0 replace (index, val = below(1000), payload seed = next()),
;;;                    1 update (index, val = below(1000))
(library (jbench chez workload)
  (export op-type-count op-type-name op-type-write? op-site-name
          make-workload workload-next-batch! workload-run-op! workload-live-set)
  (import (chezscheme) (jbench chez random) (jbench chez dataset) (jbench chez bridge))

  (define op-names '#("lookup" "range_sort" "tree_build" "replace" "update"))
  (define op-type-count 5)
  (define (op-type-name t) (vector-ref op-names t))
  (define (op-type-write? t) (fx>= t 3))
  (define site-names (vector-map (lambda (n) (bridge-name (string-append "chez." n))) op-names))
  (define (op-site-name t) (vector-ref site-names t))

  (define range-width 64)  ; items a range_sort sorts
  (define tag-count 8)     ; tags a written item carries
  (define val-range 1000)

  (define-record-type (workload raw-workload workload?)
    (fields live-set items rows row-bytes rng lane read-ratio ops-per-transaction tree-nodes))

  ;; An operation: #(type index value seed), drawn before its batch runs.
  (define (next-read! w)
    (let* ([rng (workload-rng w)]
           [t (case (rng-below! rng 5) [(0 1) 0] [(2) 1] [else 2])])
      (vector t (rng-below! rng (workload-rows w)) 0 0)))

  (define (next-write! w)
    (let ([rng (workload-rng w)])
      (if (= (rng-below! rng 2) 0)
          (let* ([i (rng-below! rng (workload-rows w))] [v (rng-below! rng val-range)])
            (vector 3 i v (rng-next! rng)))
          (let* ([i (rng-below! rng (workload-rows w))] [v (rng-below! rng val-range)])
            (vector 4 i v 0)))))

  ;; The next batch: (values writes? ops), ops a vector of ops-per-transaction operations.
  (define (workload-next-batch! w)
    (let ([writes (case (workload-lane w)
                    [(writer) #t]
                    [(reader) #f]
                    [else (not (< (rng-unit! (workload-rng w)) (workload-read-ratio w)))])]
          [ops (make-vector (workload-ops-per-transaction w))])
      (do ([k 0 (fx+ k 1)]) ((fx= k (vector-length ops)))
        (vector-set! ops k (if writes (next-write! w) (next-read! w))))
      (values writes ops)))

  (define (item-at w i) (vector-ref (workload-items w) (fxmodulo i (workload-rows w))))

  (define (payload-sum bv)
    (let loop ([k 0] [s 0])
      (if (fx= k (bytevector-length bv))
          s
          (loop (fx+ k 1) (fx+ s (bytevector-u8-ref bv k))))))

  ;; lookup: one item's payload checksum and a copy of its tags.
  (define (lookup w i)
    (let* ([it (item-at w i)] [tags (list-copy (item-tags it))])
      (fx+ (payload-sum (item-payload it)) (item-val it) (length tags))))

  ;; range_sort: the vals of range-width consecutive items, sorted; their median.
  (define (range-sort w i)
    (let loop ([k 0] [acc '()])
      (if (fx= k range-width)
          (list-ref (list-sort fx<? acc) (fxquotient range-width 2))
          (loop (fx+ k 1) (cons (item-val (item-at w (fx+ i k))) acc)))))

  ;; tree_build: a balanced search tree of tree_nodes items keyed by (val, id), then folded.
  (define-record-type node (fields key left right))

  (define (build-tree keys lo hi)
    (if (fx>= lo hi)
        #f
        (let ([mid (fxsrl (fx+ lo hi) 1)])
          (make-node (vector-ref keys mid) (build-tree keys lo mid) (build-tree keys (fx+ mid 1) hi)))))

  (define (fold-tree t depth)
    (if t
        (fxlogand (fx+ (fx* (node-key t) depth) (fold-tree (node-left t) (fx+ depth 1))
                       (fold-tree (node-right t) (fx+ depth 1)))
                  #xfffffffffff)
        0))

  (define (tree-build w i)
    (let* ([n (workload-tree-nodes w)] [keys (make-vector n)])
      (do ([k 0 (fx+ k 1)]) ((fx= k n))
        (let ([it (item-at w (fx+ i k))])
          ;; val < 1000 and id <= 10^9 < 2^30: the key stays a fixnum.
          (vector-set! keys k (fx+ (fx* (item-val it) #x40000000) (item-id it)))))
      (vector-sort! fx<? keys)
      (fold-tree (build-tree keys 0 n) 1)))

  (define (make-tags v)
    (let loop ([k 0] [acc '()])
      (if (fx= k tag-count) acc (loop (fx+ k 1) (cons (fx+ v k) acc)))))

  ;; replace: a new item (fresh payload from the drawn seed, fresh tags) in place of the old.
  (define (replace! w i v seed)
    (let ([old (item-at w i)] [payload (make-bytevector (workload-row-bytes w))])
      (fill-payload! payload seed)
      (vector-set! (workload-items w) (fxmodulo i (workload-rows w))
                   (make-item (item-id old) v payload (make-tags v)))
      v))

  ;; update: a new val and a fresh tag list stored into an existing (usually old) item.
  (define (update! w i v)
    (let* ([it (item-at w i)] [tags (item-tags it)])
      (item-val-set! it v)
      (item-tags-set! it (cons v (list-head tags (fxmin (length tags) (fx- tag-count 1)))))
      v))

  (define (workload-run-op! w op)
    (let ([i (vector-ref op 1)])
      (case (vector-ref op 0)
        [(0) (lookup w i)]
        [(1) (range-sort w i)]
        [(2) (tree-build w i)]
        [(3) (replace! w i (vector-ref op 2) (vector-ref op 3))]
        [else (update! w i (vector-ref op 2))])))

  ;; lane: 'writer, 'reader or 'mixed.
  (define (make-workload live-set seed worker-index lane read-ratio ops-per-transaction tree-nodes)
    (raw-workload live-set (live-set-items live-set) (live-set-rows live-set)
                   (live-set-row-bytes live-set) (make-splitmix64 (combine64 seed worker-index))
                   lane read-ratio ops-per-transaction tree-nodes)))
