;;; Compiles the worker's libraries ahead of time (run by CMake with --compile-imported-libraries
;;; and --libdirs SRC::OBJ): importing the top library compiles it and everything it imports into
;;; OBJ. Chez loads an object only while it is newer than its source, so a stale OBJ falls back
;;; to the source instead of running old code.
(import (jbench chez cli))
