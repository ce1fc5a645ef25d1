;;; Framing of protocol v1: one JSON object per line, harness -> worker on stdin, worker ->
;;; harness on stdout, each line written with one write(2) when the pipe has room; stderr is
;;; free text for humans. Lines over 1 MiB are a protocol error; bytes after the last newline
;;; when stdin ends are a torn message, treated as EOF and never parsed.
;;;
;;;   (define in (make-line-reader (standard-input-port)))
;;;   (read-line! in)        ; => a string, 'eof, or 'too-long
;;;   (send-json! (jobj "type" "hello" ...))   ; => #t, or #f when stdout is gone
;;;   (log-line "text")      ; "jbench-chez-worker[pid]: text" on stderr
(library (jbench chez protocol)
  (export make-line-reader read-line! max-line-bytes send-json! log-line protocol-version
          exit-ok exit-internal exit-protocol-error exit-stdin-eof exit-stdout-closed)
  (import (chezscheme) (jbench chez json) (jbench chez native))

  (define protocol-version 1)
  (define max-line-bytes 1048576)

  ;; Exit codes of docs/worker-protocol.md.
  (define exit-ok 0)              ; bye was sent
  (define exit-internal 1)        ; the worker itself failed; see stderr
  (define exit-protocol-error 2)  ; bad message, bad configure, unusable dataset; error was sent
  (define exit-stdin-eof 3)       ; stdin ended before the result was delivered
  (define exit-stdout-closed 4)   ; stdout could not be written

  ;; Bytes read but not yet returned as lines live in `pending` (a list of bytevector chunks,
  ;; newest first), so a line is assembled once, when its newline arrives.
  (define-record-type (line-reader raw-line-reader line-reader?)
    (fields port (mutable pending) (mutable pending-bytes)))

  (define (make-line-reader port) (raw-line-reader port '() 0))

  (define (index-of-newline bv start)
    (let loop ([k start])
      (cond [(= k (bytevector-length bv)) #f]
            [(= (bytevector-u8-ref bv k) 10) k]
            [else (loop (+ k 1))])))

  (define (concat chunks total)
    (let ([out (make-bytevector total)])
      (let loop ([chunks (reverse chunks)] [at 0])
        (unless (null? chunks)
          (bytevector-copy! (car chunks) 0 out at (bytevector-length (car chunks)))
          (loop (cdr chunks) (+ at (bytevector-length (car chunks))))))
      out))

  (define (slice bv start end)
    (let ([out (make-bytevector (- end start))])
      (bytevector-copy! bv start out 0 (- end start))
      out))

  ;; The next line without its newline (invalid UTF-8 becomes U+FFFD and then fails to parse
  ;; as the JSON the harness sends), 'eof, or 'too-long.
  (define (read-line! r)
    (let loop ()
      (let* ([all (concat (line-reader-pending r) (line-reader-pending-bytes r))]
             [nl (index-of-newline all 0)])
        (cond
          [nl
           (let ([rest (slice all (+ nl 1) (bytevector-length all))])
             (line-reader-pending-set! r (if (= (bytevector-length rest) 0) '() (list rest)))
             (line-reader-pending-bytes-set! r (bytevector-length rest))
             (utf8->string (slice all 0 nl)))]
          [(> (bytevector-length all) max-line-bytes) 'too-long]
          [else
           (let ([chunk (get-bytevector-some (line-reader-port r))])
             (if (eof-object? chunk)
                 'eof
                 (begin
                   (line-reader-pending-set! r (list chunk all))
                   (line-reader-pending-bytes-set! r (+ (bytevector-length all)
                                                        (bytevector-length chunk)))
                   (loop))))]))))

  (define (send-json! message)
    (eq? #t (write-all 1 (string->utf8 (string-append (json->string message) "\n")))))

  (define (log-line text)
    (write-all 2 (string->utf8 (format "jbench-chez-worker[~a]: ~a\n" (process-id) text)))
    (void)))
