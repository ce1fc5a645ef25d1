#include "jbench/proc/interrupt.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <stdexcept>

#include "jbench/proc/descriptors.h"

namespace jbench::proc {
namespace {

std::atomic<int> g_signal{0};
int g_pipe[2] = {-1, -1};
struct sigaction g_old_int {};
struct sigaction g_old_term {};
int g_depth = 0;  // watches alive: the outermost installs the handlers, the last restores them

void on_signal(int sig) {
  int expected = 0;
  g_signal.compare_exchange_strong(expected, sig);
  const char byte = 1;
  [[maybe_unused]] auto n = write(g_pipe[1], &byte, 1);
}

}  // namespace

InterruptWatch::InterruptWatch() {
  // A watch inside another (a session run by a command that watches too) shares its state: a
  // signal that arrived before it was made is still seen, and none is lost in between.
  if (g_depth++ > 0) return;
  if (open_pipe(g_pipe, O_NONBLOCK) != 0) {
    g_depth = 0;
    throw std::runtime_error("cannot make the interrupt pipe");
  }
  g_signal = 0;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptWatch::~InterruptWatch() {
  if (--g_depth > 0) return;
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
  close(g_pipe[0]);
  close(g_pipe[1]);
  g_pipe[0] = g_pipe[1] = -1;
}

bool InterruptWatch::interrupted() const { return g_signal.load() != 0; }
int InterruptWatch::signal() const { return g_signal.load(); }
int InterruptWatch::wake_fd() const { return g_pipe[0]; }

}  // namespace jbench::proc
