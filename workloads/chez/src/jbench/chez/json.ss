;;; JSON for protocol v1 messages: a strict reader and a writer.
;;;
;;; Representation: an object is a `jobj` holding its members in order (a list of
;;; (key-string . value)); an array is a Scheme vector; strings, exact integers and flonums are
;;; themselves; true/false are #t/#f; null is the symbol `null`.
;;;
;;;   (define m (json-parse "{\"type\":\"canary\"}"))   ; => a jobj, or #f if not JSON
;;;   (jobj-ref m "type" #f)                               ; => "canary"
;;;   (json->string (jobj "type" "hello" "pid" 42))       ; => {"type":"hello","pid":42}
;;;
;;; The reader accepts exactly RFC 8259 text (one value, surrounding whitespace); integers
;;; without a fraction or exponent stay exact, so a configure's counts are never rounded.
(library (jbench chez json)
  (export jobj jobj? jobj-members jobj-ref jobj-has? jobj-keys jobj-count jobj-append
          json-parse json->string json-null?)
  (import (chezscheme))

  (define-record-type (json-object make-jobj jobj?)
    (fields (immutable members jobj-members)))

  ;; (jobj "k1" v1 "k2" v2 ...): members in the given order.
  (define (jobj . kvs)
    (let loop ([kvs kvs] [acc '()])
      (cond
        [(null? kvs) (make-jobj (reverse acc))]
        [(null? (cdr kvs)) (assertion-violation 'jobj "odd number of arguments")]
        [else (loop (cddr kvs) (cons (cons (car kvs) (cadr kvs)) acc))])))

  ;; A new object: `o`'s members followed by those of `more` (a jobj).
  (define (jobj-append o more)
    (make-jobj (append (jobj-members o) (jobj-members more))))

  (define (jobj-ref o key default)
    (let ([m (assoc key (jobj-members o))]) (if m (cdr m) default)))
  (define (jobj-has? o key) (and (assoc key (jobj-members o)) #t))
  (define (jobj-keys o) (map car (jobj-members o)))
  (define (jobj-count o) (length (jobj-members o)))
  (define (json-null? v) (eq? v 'null))

  ;; ---------------------------------------------------------------------------------------
  ;; Reader. Works on a string; any departure from the grammar makes json-parse return #f.

  (define (json-parse text)
    (call/cc
      (lambda (fail)
        (let ([n (string-length text)] [i 0])
          (define (bad) (fail #f))
          (define (peek) (if (< i n) (string-ref text i) #\nul))
          (define (advance!) (set! i (+ i 1)))
          (define (skip-ws!)
            (let loop ()
              (when (and (< i n) (memv (string-ref text i) '(#\space #\tab #\newline #\return)))
                (advance!)
                (loop))))
          (define (expect! c) (if (char=? (peek) c) (advance!) (bad)))
          (define (literal! word value)
            (let ([k (string-length word)])
              (if (and (<= (+ i k) n) (string=? (substring text i (+ i k)) word))
                  (begin (set! i (+ i k)) value)
                  (bad))))
          (define (hex4!)
            (unless (<= (+ i 4) n) (bad))
            (let ([v (string->number (substring text i (+ i 4)) 16)])
              (unless (and v (exact? v) (>= v 0)
                           (for-all (lambda (c) (or (char<=? #\0 c #\9) (char<=? #\a c #\f)
                                                    (char<=? #\A c #\F)))
                                    (string->list (substring text i (+ i 4)))))
                (bad))
              (set! i (+ i 4))
              v))
          (define (read-string!)
            (expect! #\")
            (let loop ([acc '()])
              (when (>= i n) (bad))
              (let ([c (peek)])
                (advance!)
                (cond
                  [(char=? c #\") (list->string (reverse acc))]
                  [(char<? c #\space) (bad)]
                  [(char=? c #\\)
                   (let ([e (peek)])
                     (advance!)
                     (case e
                       [(#\") (loop (cons #\" acc))]
                       [(#\\) (loop (cons #\\ acc))]
                       [(#\/) (loop (cons #\/ acc))]
                       [(#\b) (loop (cons #\backspace acc))]
                       [(#\f) (loop (cons #\page acc))]
                       [(#\n) (loop (cons #\newline acc))]
                       [(#\r) (loop (cons #\return acc))]
                       [(#\t) (loop (cons #\tab acc))]
                       [(#\u)
                        (let ([u (hex4!)])
                          (cond
                            [(<= #xD800 u #xDBFF)
                             ;; A high surrogate must be followed by an escaped low one.
                             (expect! #\\)
                             (expect! #\u)
                             (let ([lo (hex4!)])
                               (unless (<= #xDC00 lo #xDFFF) (bad))
                               (loop (cons (integer->char
                                             (+ #x10000 (ash (- u #xD800) 10) (- lo #xDC00)))
                                           acc)))]
                            [(<= #xDC00 u #xDFFF) (bad)]
                            [else (loop (cons (integer->char u) acc))]))]
                       [else (bad)]))]
                  [else (loop (cons c acc))]))))
          (define (digits!)
            (let ([start i])
              (let loop () (when (char<=? #\0 (peek) #\9) (advance!) (loop)))
              (when (= start i) (bad))))
          (define (read-number!)
            (let ([start i] [exact #t])
              (when (char=? (peek) #\-) (advance!))
              (cond
                [(char=? (peek) #\0) (advance!)]
                [(char<=? #\1 (peek) #\9) (digits!)]
                [else (bad)])
              (when (char=? (peek) #\.)
                (advance!)
                (digits!)
                (set! exact #f))
              (when (memv (peek) '(#\e #\E))
                (advance!)
                (when (memv (peek) '(#\+ #\-)) (advance!))
                (digits!)
                (set! exact #f))
              (let ([v (string->number (substring text start i) 10)])
                (unless v (bad))
                (if exact v (inexact v)))))
          (define (read-value!)
            (skip-ws!)
            (let ([c (peek)])
              (cond
                [(char=? c #\{) (advance!) (read-object!)]
                [(char=? c #\[) (advance!) (read-array!)]
                [(char=? c #\") (read-string!)]
                [(char=? c #\t) (literal! "true" #t)]
                [(char=? c #\f) (literal! "false" #f)]
                [(char=? c #\n) (literal! "null" 'null)]
                [(or (char=? c #\-) (char<=? #\0 c #\9)) (read-number!)]
                [else (bad)])))
          (define (read-object!)
            (skip-ws!)
            (if (char=? (peek) #\})
                (begin (advance!) (make-jobj '()))
                (let loop ([acc '()])
                  (skip-ws!)
                  (let ([k (read-string!)])
                    (skip-ws!)
                    (expect! #\:)
                    (let ([v (read-value!)])
                      (skip-ws!)
                      (let ([acc (cons (cons k v) acc)])
                        (case (peek)
                          [(#\,) (advance!) (loop acc)]
                          [(#\}) (advance!) (make-jobj (reverse acc))]
                          [else (bad)])))))))
          (define (read-array!)
            (skip-ws!)
            (if (char=? (peek) #\])
                (begin (advance!) (vector))
                (let loop ([acc '()])
                  (let ([v (read-value!)])
                    (skip-ws!)
                    (case (peek)
                      [(#\,) (advance!) (loop (cons v acc))]
                      [(#\]) (advance!) (list->vector (reverse (cons v acc)))]
                      [else (bad)])))))
          (let ([v (read-value!)])
            (skip-ws!)
            (if (= i n) v (bad)))))))

  ;; ---------------------------------------------------------------------------------------
  ;; Writer. Compact (no spaces); strings keep non-ASCII characters as UTF-8 and escape
  ;; quotes, backslashes and control characters.

  (define (write-string s port)
    (put-char port #\")
    (string-for-each
      (lambda (c)
        (case c
          [(#\") (put-string port "\\\"")]
          [(#\\) (put-string port "\\\\")]
          [(#\newline) (put-string port "\\n")]
          [(#\return) (put-string port "\\r")]
          [(#\tab) (put-string port "\\t")]
          [else
           (if (char<? c #\space)
               (put-string port (string-append "\\u00"
                                               (if (< (char->integer c) 16) "0" "")
                                               (number->string (char->integer c) 16)))
               (put-char port c))]))
      s)
    (put-char port #\"))

  (define (write-number v port)
    (cond
      [(and (exact? v) (integer? v)) (put-string port (number->string v))]
      [(and (flonum? v) (not (or (nan? v) (infinite? v))))
       ;; Chez prints flonums as JSON accepts them (1234.5, 1e-7), except a trailing "." form.
       (let ([s (number->string v)])
         (put-string port (if (char=? (string-ref s (- (string-length s) 1)) #\.)
                              (string-append s "0")
                              s)))]
      [else (assertion-violation 'json->string "not a JSON number" v)]))

  (define (write-value v port)
    (cond
      [(jobj? v)
       (put-char port #\{)
       (let loop ([ms (jobj-members v)] [first #t])
         (unless (null? ms)
           (unless first (put-char port #\,))
           (write-string (caar ms) port)
           (put-char port #\:)
           (write-value (cdar ms) port)
           (loop (cdr ms) #f)))
       (put-char port #\})]
      [(vector? v)
       (put-char port #\[)
       (let loop ([k 0])
         (when (< k (vector-length v))
           (unless (= k 0) (put-char port #\,))
           (write-value (vector-ref v k) port)
           (loop (+ k 1))))
       (put-char port #\])]
      [(string? v) (write-string v port)]
      [(eq? v #t) (put-string port "true")]
      [(eq? v #f) (put-string port "false")]
      [(eq? v 'null) (put-string port "null")]
      [(number? v) (write-number v port)]
      [else (assertion-violation 'json->string "not a JSON value" v)]))

  (define (json->string v)
    (let-values ([(port extract) (open-string-output-port)])
      (write-value v port)
      (extract))))
