;;; The command line of jbench-chez-worker. The launcher runs
;;;   chezscheme --libdirs SRC --program SRC/main.ss --bridge /abs/libjbench_bridge.so ARGS...
;;; and ARGS are the user's:
;;;   build-dataset --db PATH --rows N --row-bytes B --seed S
;;;   serve
;;;
;;;   (run-worker (command-line-arguments))   ; => the exit code
(library (jbench chez cli)
  (export run-worker)
  (import (chezscheme) (jbench chez json) (jbench chez native) (jbench chez protocol)
          (jbench chez dataset) (jbench chez serve) (jbench chez config))

  (define usage
    (string-append
      "usage: jbench-chez-worker build-dataset --db PATH --rows N --row-bytes B --seed S\n"
      "       jbench-chez-worker serve    (protocol v1 on stdin/stdout; see docs/chez-worker.md)\n"
      "       jbench-chez-worker describe (its parameters, for a matrix's kind: process)\n"))

  (define (report-error message)
    (log-line message)
    (if (send-json! (jobj "type" "error" "message" message)) exit-protocol-error exit-stdout-closed))

  (define (decimal v)
    (and (> (string-length v) 0)
         (<= (string-length v) 20)
         (for-all (lambda (c) (char<=? #\0 c #\9)) (string->list v))
         (or (string=? v "0") (not (char=? (string-ref v 0) #\0)))
         (let ([n (string->number v 10)]) (and (<= n #xffffffffffffffff) n))))

  ;; Exactly the four flags, each once, in any order.
  (define (build-dataset-command args)
    (let loop ([args args] [flags '()])
      (cond
        [(null? args)
         (let ([missing (filter (lambda (f) (not (assoc f flags)))
                                '("--db" "--rows" "--row-bytes" "--seed"))])
           (if (pair? missing)
               (report-error (string-append (car missing) " is required"))
               (let ([db (cdr (assoc "--db" flags))]
                     [rows (decimal (cdr (assoc "--rows" flags)))]
                     [row-bytes (decimal (cdr (assoc "--row-bytes" flags)))]
                     [seed (decimal (cdr (assoc "--seed" flags)))])
                 (cond
                   [(not (and rows row-bytes seed))
                    (report-error "--rows, --row-bytes and --seed take unsigned decimal integers")]
                   [(not (<= 1 rows max-rows))
                    (report-error (format "--rows must be in 1..~a" max-rows))]
                   [(not (<= row-bytes max-row-bytes))
                    (report-error (format "--row-bytes must be in 0..~a" max-row-bytes))]
                   [(not (and (> (string-length db) 0) (char=? (string-ref db 0) #\/)))
                    (report-error "--db must be an absolute path")]
                   [else
                    (let-values ([(report why) (build-dataset db rows row-bytes seed)])
                      (cond
                        [(not report) (report-error why)]
                        [(send-json! report) exit-ok]
                        [else exit-stdout-closed]))]))))]
        [(not (member (car args) '("--db" "--rows" "--row-bytes" "--seed")))
         (report-error (format "unknown argument '~a'" (car args)))]
        [(null? (cdr args)) (report-error (format "~a needs a value" (car args)))]
        [(assoc (car args) flags) (report-error (format "~a given twice" (car args)))]
        [else (loop (cddr args) (cons (cons (car args) (cadr args)) flags))])))

  (define (run-worker args)
    (ignore-sigpipe!)
    (cond
      [(not (and (>= (length args) 2) (string=? (car args) "--bridge")))
       (log-line "run me through the jbench-chez-worker launcher (it passes --bridge PATH)")
       exit-protocol-error]
      [else
       (let ([bridge (cadr args)] [args (cddr args)])
         (cond
           [(equal? args '("serve")) (serve bridge)]
           [(equal? args '("describe"))
            (if (send-json! (describe-message)) exit-ok exit-stdout-closed)]
           [(and (pair? args) (string=? (car args) "build-dataset"))
            (build-dataset-command (cdr args))]
           [(and (= (length args) 1) (member (car args) '("--help" "-h")))
            (write-all 1 (string->utf8 usage))
            exit-ok]
           [else (write-all 2 (string->utf8 usage)) exit-protocol-error]))])))
