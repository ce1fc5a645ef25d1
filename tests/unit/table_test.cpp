// Tables as CSV and Markdown: what a spreadsheet or a pull request reads back is what was put in.
#include "jbench/common/table.h"

#include <gtest/gtest.h>

namespace jbench {
namespace {

TEST(Table, csv_quotes_only_fields_that_need_it_and_doubles_their_quotes) {
  const Table t{{"cell", "label", "pct"},
                {{"w1.a", "pread64 on \"db\", then fsync", "31.2"}, {"w2.b", "line\nbreak", ""}}};
  EXPECT_EQ(to_csv(t),
            "cell,label,pct\n"
            "w1.a,\"pread64 on \"\"db\"\", then fsync\",31.2\n"
            "w2.b,\"line\nbreak\",\n");
}

TEST(Table, markdown_escapes_pipes_and_folds_line_breaks) {
  const Table t{{"cell", "label"}, {{"w1|a", "two\nlines"}, {"short"}}};
  EXPECT_EQ(to_markdown(t),
            "| cell | label |\n"
            "| --- | --- |\n"
            "| w1\\|a | two lines |\n"
            "| short |  |\n");  // a short row is padded to the header's width
}

}  // namespace
}  // namespace jbench
