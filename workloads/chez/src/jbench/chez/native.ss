;;; The few libc calls the worker needs, bound with foreign-procedure (x86_64 Linux, glibc).
;;;
;;; Why not Chez's own procedures: (current-time 'time-monotonic) counts from the start of the
;;; Chez process, not CLOCK_MONOTONIC, so its readings cannot be compared with the harness's or
;;; the bridge's timestamps; stdout is written with write(2) so each protocol line leaves in one
;;; system call; the canary must be the raw faccessat syscall (glibc's faccessat() issues
;;; faccessat2), so collectors can match it.
;;;
;;;   (monotonic-ns)                 ; => CLOCK_MONOTONIC in nanoseconds (a fixnum)
;;;   (write-all 1 (string->utf8 "...\n"))   ; => #t, or the errno that stopped it
(library (jbench chez native)
  (export monotonic-ns cpu-times write-all ignore-sigpipe! process-id random-bytes
          faccessat-canary errno-name)
  (import (chezscheme))

  (define libc (load-shared-object "libc.so.6"))

  (define CLOCK_MONOTONIC 1)
  (define RUSAGE_SELF 0)
  (define SIGPIPE 13)
  (define SIG_IGN 1)
  (define SYS_faccessat 269)  ; x86_64
  (define AT_FDCWD -100)
  (define F_OK 0)
  (define EINTR 4)

  (define c-clock-gettime (foreign-procedure "clock_gettime" (int uptr) int))
  (define c-getrusage (foreign-procedure "getrusage" (int uptr) int))
  (define c-write (foreign-procedure "write" (int u8* uptr) iptr))
  (define c-signal (foreign-procedure "signal" (int uptr) uptr))
  (define c-getpid (foreign-procedure "getpid" () int))
  (define c-errno-location (foreign-procedure "__errno_location" () uptr))
  ;; syscall(2) is variadic; with integer and pointer arguments only, the x86_64 calling
  ;; convention is the same as for a fixed-argument function.
  (define c-syscall-faccessat (foreign-procedure "syscall" (long int u8* int) long))

  ;; Buffers in C memory, allocated once: reading a clock must not allocate Scheme objects
  ;; (that would add the harness's bookkeeping to the garbage the workload makes). Each is
  ;; filled and read inside a critical section: the collect-request handler reads the clock
  ;; too, and were it to run between the call and the reads, seconds of one reading would be
  ;; combined with nanoseconds of another.
  (define timespec (foreign-alloc 16))
  (define rusage (foreign-alloc 144))

  (define (errno) (foreign-ref 'int (c-errno-location) 0))

  (define (monotonic-ns)
    (critical-section
      (c-clock-gettime CLOCK_MONOTONIC timespec)
      (+ (* (foreign-ref 'long timespec 0) 1000000000) (foreign-ref 'long timespec 8))))

  ;; User and system CPU time of this process, in nanoseconds: (values user system).
  (define (cpu-times)
    (critical-section
      (c-getrusage RUSAGE_SELF rusage)
      ;; struct rusage begins with ru_utime and ru_stime, each a struct timeval {long; long}.
      (values (+ (* (foreign-ref 'long rusage 0) 1000000000) (* (foreign-ref 'long rusage 8) 1000))
              (+ (* (foreign-ref 'long rusage 16) 1000000000)
                 (* (foreign-ref 'long rusage 24) 1000)))))

  ;; Writes every byte of `bv` to `fd`, retrying after EINTR and partial writes. Returns #t, or
  ;; the errno (e.g. 32, EPIPE) of the write that failed.
  (define (write-all fd bv)
    (let loop ([bv bv])
      (let ([n (c-write fd bv (bytevector-length bv))])
        (cond
          [(= n (bytevector-length bv)) #t]
          [(>= n 0)
           (let ([rest (make-bytevector (- (bytevector-length bv) n))])
             (bytevector-copy! bv n rest 0 (bytevector-length rest))
             (loop rest))]
          [else (let ([e (errno)]) (if (= e EINTR) (loop bv) e))]))))

  ;; A vanished reader must surface as EPIPE from write(2), not kill the worker silently.
  (define (ignore-sigpipe!) (c-signal SIGPIPE SIG_IGN))

  (define (process-id) (c-getpid))

  ;; `n` bytes from the kernel's random source (/dev/urandom never blocks once seeded).
  (define (random-bytes n)
    (let* ([port (open-file-input-port "/dev/urandom")]
           [bv (get-bytevector-n port n)])
      (close-port port)
      (if (and (bytevector? bv) (= (bytevector-length bv) n))
          bv
          (error 'random-bytes "short read from /dev/urandom"))))

  ;; The recognisable syscall of the canary: faccessat(AT_FDCWD, path, F_OK), raw. Returns 0
  ;; when the path exists, else the errno (ENOENT expected).
  (define (faccessat-canary path)
    (let* ([bv (string->utf8 (string-append path "\x0;"))]
           [rc (c-syscall-faccessat SYS_faccessat AT_FDCWD bv F_OK)])
      (if (= rc 0) 0 (errno))))

  (define errno-names
    '((1 . "EPERM") (2 . "ENOENT") (5 . "EIO") (12 . "ENOMEM") (13 . "EACCES") (14 . "EFAULT")
      (20 . "ENOTDIR") (22 . "EINVAL") (36 . "ENAMETOOLONG") (38 . "ENOSYS") (40 . "ELOOP")))

  ;; "0" for success, the symbolic name for the usual errnos, "errno <n>" otherwise.
  (define (errno-name e)
    (cond
      [(= e 0) "0"]
      [(assv e errno-names) => cdr]
      [else (string-append "errno " (number->string e))])))
