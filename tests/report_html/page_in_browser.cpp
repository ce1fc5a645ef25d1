#include "page_in_browser.h"

#include <fstream>
#include <regex>
#include <sstream>

namespace jbench::test {

std::string serialized_text(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '&') {
      out += "&amp;";
    } else if (s[i] == '<') {
      out += "&lt;";
    } else if (s[i] == '>') {
      out += "&gt;";
    } else if (s.compare(i, 2, "\xC2\xA0") == 0) {
      out += "&nbsp;";
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string recorded_errors(const std::string& dom) {
  std::smatch m;
  if (!std::regex_search(dom, m, std::regex(R"re(<html[^>]*\sdata-js-errors="(\d+)")re")))
    return "";
  return m[1];
}

std::string recorded_error_log(const std::string& dom) {
  std::smatch m;
  if (!std::regex_search(dom, m, std::regex(R"re(<html[^>]*\sdata-js-error-log="([^"]*)")re"))) {
    return "";
  }
  return m[1];
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

void PageInBrowser::SetUp() {
  chromium_ = find_chromium();
  if (!chromium_) {
    GTEST_SKIP() << "no chromium: neither $JBENCH_CHROMIUM nor /usr/bin/chromium is an "
                    "executable (bash ci/install-deps.sh installs Debian's chromium)";
  }
}

BrowserRun PageInBrowser::open(const std::string& page, const std::vector<std::string>& extra) {
  BrowserRun run = run_headless(*chromium_, page, extra, tmp_.path());
  EXPECT_TRUE(run.ok) << run.what << "\n" << run.err;
  EXPECT_EQ(run.leftovers, 0) << "chromium processes outlived the launch (killed now)";
  RecordProperty("chromium_ms", static_cast<int>(run.seconds * 1000));
  return run;
}

std::string PageInBrowser::clean_dom(const std::string& page) {
  const BrowserRun run = dump_dom(page);
  EXPECT_EQ(recorded_errors(run.out), "0") << recorded_error_log(run.out);
  EXPECT_EQ(joined(console_lines(run.err)), "");
  return run.out;
}

}  // namespace jbench::test
