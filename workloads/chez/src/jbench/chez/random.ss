;;; Seeded randomness, bit for bit the generator of core/common/include/jbench/common/random.h:
;;; SplitMix64 (`next` adds 0x9e3779b97f4a7c15 and returns the finaliser of the state), Lemire's
;;; multiply-shift with rejection for `below`, and `combine64` to derive a worker's stream from
;;; the run seed and its index. Exact integers stand in for uint64 (masked to 64 bits), so the
;;; same seed gives the same draws here and in the C++ harness.
;;;
;;;   (define rng (make-splitmix64 42))
;;;   (rng-below! rng 6)          ; uniform in [0, 6)
;;;   (rng-unit! rng)             ; (next >> 11) * 2^-53, a flonum in [0, 1)
;;;
;;; The payload filler is not SplitMix64: it expands one 64-bit draw into any number of bytes
;;; with a 32-bit xorshift kept in fixnums, so filling a payload allocates nothing but the
;;; bytevector itself.
(library (jbench chez random)
  (export make-splitmix64 rng-next! rng-below! rng-unit! mix64 combine64 fill-payload!)
  (import (chezscheme))

  (define mask64 #xffffffffffffffff)
  (define golden #x9e3779b97f4a7c15)

  (define (mix64 x)
    (let* ([x (logand (* (logxor x (ash x -30)) #xbf58476d1ce4e5b9) mask64)]
           [x (logand (* (logxor x (ash x -27)) #x94d049bb133111eb) mask64)])
      (logxor x (ash x -31))))

  (define (combine64 a b) (mix64 (logand (+ a golden (mix64 b)) mask64)))

  (define-record-type (splitmix64 make-splitmix64 splitmix64?)
    (fields (mutable state)))

  (define (rng-next! rng)
    (let ([s (logand (+ (splitmix64-state rng) golden) mask64)])
      (splitmix64-state-set! rng s)
      (mix64 s)))

  ;; Uniform in [0, bound), bound > 0: the high 64 bits of next * bound, rejecting the biased
  ;; low range.
  (define (rng-below! rng bound)
    (let ([threshold (mod (- (expt 2 64) bound) bound)])
      (let loop ()
        (let ([m (* (rng-next! rng) bound)])
          (if (>= (logand m mask64) threshold) (ash m -64) (loop))))))

  (define (rng-unit! rng) (inexact (/ (ash (rng-next! rng) -11) (expt 2 53))))

  ;; Fills bv[0..) from the 64-bit `seed`: xorshift32 (13, 17, 5) on a non-zero state, four
  ;; little-endian bytes per step, the last step cut to fit.
  (define (fill-payload! bv seed)
    (let ([n (bytevector-length bv)])
      (let loop ([x (let ([s (logand (logxor seed (ash seed -32)) #xffffffff)])
                      (if (fx= s 0) #x9e3779b9 s))]
                 [k 0])
        (when (fx< k n)
          (let* ([x (fxlogxor x (fxlogand (fxsll x 13) #xffffffff))]
                 [x (fxlogxor x (fxsrl x 17))]
                 [x (fxlogxor x (fxlogand (fxsll x 5) #xffffffff))])
            (let fill ([j 0])
              (when (and (fx< j 4) (fx< (fx+ k j) n))
                (bytevector-u8-set! bv (fx+ k j) (fxlogand (fxsrl x (fx* 8 j)) #xff))
                (fill (fx+ j 1))))
            (loop x (fx+ k 4))))))))
