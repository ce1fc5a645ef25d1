// The page's one script, and the Content-Security-Policy that admits it and nothing else.
//
// The script does not draw anything: it records every error the page meets (an uncaught
// exception, a console.error, a blocked fetch, a resource that failed to load) on the <html>
// element as data-js-errors (a count) and data-js-error-log (their messages, in
// order, cut at 2000 characters). A person opening the page can read
// them in the inspector; the browser test reads them in the dumped DOM.
#pragma once

#include <string>
#include <string_view>

namespace jbench::html_pages {

// The script's text, to be placed verbatim in a <script> element in <head>, before any content.
std::string_view error_recorder_script();

// The policy for a <meta http-equiv="Content-Security-Policy">: no fetch of any kind, inline
// styles allowed, and scripts only if their hash is error_recorder_script()'s. A hash rather than
// 'unsafe-inline' means that should a report string ever escape its escaping, an injected
// handler (onerror=…) still does not run.
std::string content_security_policy();

}  // namespace jbench::html_pages
