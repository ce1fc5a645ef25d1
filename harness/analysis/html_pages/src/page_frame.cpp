#include "page_frame.h"

#include <fmt/format.h>

#include <array>

#include "format.h"
#include "html_escape.h"
#include "page_script.h"
#include "page_style.h"

namespace jbench::html_pages {

std::string page_head(std::string_view title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{}</title>\n<script>{}</script>\n<style>{}</style>\n</head>\n<body>\n",
      content_security_policy(), escape(title), error_recorder_script(), page_css());
}

std::string schema_note(const nlohmann::json& document, std::string_view expected) {
  const std::string schema = text(field(document, "schema"));
  if (schema == expected) return "";
  return fmt::format(
      "<p class=\"banner note\">This document does not say it is a {} (schema: {}); what could "
      "be read is shown.</p>\n",
      escape(expected), escape(schema.empty() ? "none" : schema));
}

std::string outcome_banner(const nlohmann::json& document) {
  // The class comes from a fixed list, never from the document: a foreign outcome is "unstated".
  constexpr std::array<std::string_view, 4> kOutcomes = {"regression", "no_regression",
                                                         "no_verdict", "refused"};
  const std::string outcome = text(field(document, "outcome"));
  std::string_view css = "unstated";
  for (const std::string_view known : kOutcomes) {
    if (outcome == known) css = known;
  }
  std::string sentence = text(field(document, "summary"));
  if (sentence.empty()) {
    sentence = outcome.empty() ? "The document states no outcome." : "Outcome: " + outcome + ".";
  }
  const auto exit_code = number(field(document, "exit_code"));
  const std::string code = exit_code ? fmt::format("{:.0f}", *exit_code) : "";
  return fmt::format(
      "<p class=\"banner outcome {0}\" id=\"outcome\" data-outcome=\"{1}\" "
      "data-exit-code=\"{2}\">{3} <span class=\"exit-code\">{4}</span></p>\n",
      css, escape(outcome), escape(code), escape(sentence),
      code.empty() ? "(no exit code stated)" : "exit " + code);
}

}  // namespace jbench::html_pages
