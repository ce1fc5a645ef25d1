;;; jbench-chez-worker: a jbench cohort member written in Chez Scheme (docs/chez-worker.md).
(import (chezscheme) (jbench chez cli))
(exit (run-worker (command-line-arguments)))
