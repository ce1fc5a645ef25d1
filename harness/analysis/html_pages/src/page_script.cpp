#include "page_script.h"

#include <algorithm>
#include <string>

#include "jbench/common/sha256.h"

namespace jbench::html_pages {
namespace {

// Kept to ES5 and to one expression statement: it must run in any browser that opens the page.
constexpr std::string_view kScript =
    "(function(){var d=document.documentElement,n=0;"
    "function rec(m){n++;d.setAttribute('data-js-errors',String(n));"
    "var l=d.getAttribute('data-js-error-log');"
    "d.setAttribute('data-js-error-log',((l?l+' | ':'')+String(m)).slice(0,2000));}"
    "d.setAttribute('data-js-errors','0');"
    // Capturing at window sees script errors and failed resource loads (which do not bubble).
    "window.addEventListener('error',function(e){"
    "rec(e.message||('failed to load '+(e.target&&(e.target.src||e.target.href))));},true);"
    "document.addEventListener('securitypolicyviolation',function(e){"
    "rec('blocked by the page policy: '+e.violatedDirective+' '+e.blockedURI);});"
    "var ce=console.error;console.error=function(){"
    "rec(Array.prototype.join.call(arguments,' '));return ce.apply(console,arguments);};"
    "})();";

int hex_value(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

// CSP wants the digest in base64; jbench's digests are written in hex.
std::string base64_of_hex(const std::string& hex) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes += static_cast<char>(hex_value(hex[i]) * 16 + hex_value(hex[i + 1]));
  }
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    unsigned v = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      v = v << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    }
    for (std::size_t k = 0; k < 4; ++k) {
      out += k <= n ? kAlphabet[(v >> (18 - 6 * k)) & 63] : '=';
    }
  }
  return out;
}

}  // namespace

std::string_view error_recorder_script() { return kScript; }

std::string content_security_policy() {
  return "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
         "form-action 'none'; script-src 'sha256-" +
         base64_of_hex(sha256_hex(kScript)) + "'";
}

}  // namespace jbench::html_pages
