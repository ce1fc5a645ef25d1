// What the browser tests of every page share: a fixture that skips without a chromium, writes a
// page into its temp dir and opens it (each launch checked to have succeeded and left no
// process), and readers of what the dumped DOM says about the page's own error recorder.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "headless_chromium.h"
#include "temp_dir.h"

namespace jbench::test {

// How Chromium serializes a text node: &, <, > and the no-break space escaped, nothing else.
std::string serialized_text(const std::string& s);

// The value of the page's error recorder on <html> (page_script.h): "0" when nothing went wrong,
// "" when the recorder never ran (its hash did not match the page's policy, say).
std::string recorded_errors(const std::string& dom);
std::string recorded_error_log(const std::string& dom);

std::string read_file(const std::string& path);
std::string joined(const std::vector<std::string>& lines);

class PageInBrowser : public ::testing::Test {
 protected:
  void SetUp() override;

  std::string write_page(const std::string& name, const std::string& html) {
    return tmp_.write(name, html);
  }

  // One launch; fails the test (non-fatally) if the browser failed or left a process behind.
  BrowserRun open(const std::string& page, const std::vector<std::string>& extra);
  BrowserRun dump_dom(const std::string& page) { return open(page, {"--dump-dom"}); }

  // Opens the page with --dump-dom and fails the test unless the page recorded no error and
  // Chromium logged no console line. The DOM, for the caller's own checks.
  std::string clean_dom(const std::string& page);

  std::optional<std::string> chromium_;
  TempDir tmp_;
};

}  // namespace jbench::test
