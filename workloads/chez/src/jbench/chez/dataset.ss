;;; The dataset of the Chez worker (format jbench.chez_dataset/1): the live set a worker loads
;;; at configure, as a file, so every run of a cell starts from the same bytes.
;;;
;;; Layout, all integers little-endian:
;;;   bytes 0..7    magic "JBCHEZD1"
;;;   bytes 8..15   rows        (u64)
;;;   bytes 16..23  row_bytes   (u64)
;;;   bytes 24..31  seed        (u64)
;;;   then `rows` records, in id order (1..rows): val (u32), payload (row_bytes bytes)
;;; Content is a pure function of (rows, row_bytes, seed): SplitMix64(seed) draws, per record,
;;; val = below(1000) then one next() that seeds the payload filler (random.ss). The file
;;; bytes are the content: two builds with the same arguments are byte-identical.
;;;
;;;   (build-dataset "/abs/d.db" 20000 64 7)  ; => (values report #f) or (values #f "why")
;;;   (load-dataset "/abs/d.db")              ; => (values live-set #f) or (values #f "why")
(library (jbench chez dataset)
  (export build-dataset load-dataset dataset-format max-rows max-row-bytes
          live-set? live-set-items live-set-rows live-set-row-bytes live-set-seed
          make-item item? item-id item-val item-val-set! item-payload item-tags item-tags-set!)
  (import (chezscheme) (jbench chez json) (jbench chez native) (jbench chez random))

  (define dataset-format "jbench.chez_dataset/1")
  (define magic (string->utf8 "JBCHEZD1"))
  (define header-bytes 32)
  (define max-rows 1000000000)
  (define max-row-bytes 1048576)
  (define val-range 1000)

  ;; One element of the live set. `val` and `tags` change under writes: a young list stored
  ;; into an old item is exactly the old-to-young pointer a generational collector must track.
  (define-record-type item
    (fields (immutable id) (mutable val) (immutable payload) (mutable tags)))

  (define-record-type live-set
    (fields items rows row-bytes seed))

  (define (u64-bytes n)
    (let ([bv (make-bytevector 8)]) (bytevector-u64-set! bv 0 n (endianness little)) bv))

  ;; Builds into PATH.building and renames it into place when complete, so a crash never leaves
  ;; a half-built dataset under the real name. Refuses to overwrite either name.
  (define (build-dataset path rows row-bytes seed)
    (let ([tmp (string-append path ".building")] [t0 (monotonic-ns)])
      (cond
        [(file-exists? path #f)
         (values #f (string-append path " already exists; refusing to overwrite it"))]
        [(file-exists? tmp #f)
         (values #f (string-append tmp " exists (an interrupted build?); remove it first"))]
        [else
         (guard (e [(i/o-error? e) (values #f (condition->text e))])
           ;; (file-options) without no-fail: opening fails if the file appeared meanwhile.
           (let ([port (open-file-output-port tmp (file-options))])
             (put-bytevector port magic)
             (for-each (lambda (n) (put-bytevector port (u64-bytes n))) (list rows row-bytes seed))
             (let ([rng (make-splitmix64 seed)]
                   [val-bytes (make-bytevector 4)]
                   [payload (make-bytevector row-bytes)])
               (do ([id 1 (+ id 1)]) ((> id rows))
                 (bytevector-u32-set! val-bytes 0 (rng-below! rng val-range) (endianness little))
                 (fill-payload! payload (rng-next! rng))
                 (put-bytevector port val-bytes)
                 (put-bytevector port payload)))
             (close-port port)
             (rename-file tmp path)
             (values (jobj "type" "dataset"
                           "format" dataset-format
                           "rows" rows
                           "row_bytes" row-bytes
                           "seed" (number->string seed)
                           "file_bytes" (+ header-bytes (* rows (+ 4 row-bytes)))
                           "build_ns" (number->string (- (monotonic-ns) t0)))
                     #f)))])))

  ;; Reads a dataset into a live set: a vector of `rows` items, item i holding id i + 1.
  (define (load-dataset path)
    (guard (e [(i/o-error? e) (values #f (condition->text e))]
              [(corrupt? e) (values #f (string-append path ": " (corrupt-why e)))])
      (let* ([port (open-file-input-port path)]
             [header (get-bytevector-n port header-bytes)]
             [fail (lambda (why) (close-port port) (values #f (string-append path ": " why)))])
        (if (not (and (bytevector? header) (= (bytevector-length header) header-bytes)
                      (bytevector=? (subbytevector header 0 8) magic)))
            (fail (string-append "not a " dataset-format " file (build it with build-dataset)"))
            (let ([rows (bytevector-u64-ref header 8 (endianness little))]
                  [row-bytes (bytevector-u64-ref header 16 (endianness little))]
                  [seed (bytevector-u64-ref header 24 (endianness little))])
              (cond
                [(not (and (<= 1 rows max-rows) (<= row-bytes max-row-bytes)))
                 (fail "the header's rows or row_bytes are out of range")]
                [(not (= (port-length port) (+ header-bytes (* rows (+ 4 row-bytes)))))
                 (fail (format "~a bytes, but a dataset of ~a rows of ~a bytes has ~a"
                               (port-length port) rows row-bytes
                               (+ header-bytes (* rows (+ 4 row-bytes)))))]
                [else
                 (let ([items (make-vector rows #f)] [val-bytes (make-bytevector 4)])
                   (do ([i 0 (+ i 1)]) ((= i rows))
                     (get-bytevector-n! port val-bytes 0 4)
                     (let ([val (bytevector-u32-ref val-bytes 0 (endianness little))]
                           [payload (if (= row-bytes 0) (make-bytevector 0)
                                        (get-bytevector-n port row-bytes))])
                       (unless (< val val-range)
                         (close-port port)
                         (raise (make-corrupt (format "record ~a has val ~a, not below ~a"
                                                      (+ i 1) val val-range))))
                       (vector-set! items i (make-item (+ i 1) val payload (list val)))))
                   (close-port port)
                   (values (make-live-set items rows row-bytes seed) #f))]))))))

  ;; A record that breaks the format's invariants: the file was not written by build-dataset.
  (define-record-type corrupt (fields why))

  (define (subbytevector bv start end)
    (let ([out (make-bytevector (- end start))])
      (bytevector-copy! bv start out 0 (- end start))
      out))

  (define (condition->text e)
    (call-with-string-output-port (lambda (p) (display-condition e p)))))
