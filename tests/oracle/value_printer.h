// Values print as SQL literals in gtest failures instead of gtest's byte dump (found by ADL).
#pragma once

#include <ostream>

#include "jbench/oracle/result_set.h"

namespace jbench::oracle {
inline void PrintTo(const Value& v, std::ostream* os) { *os << to_sql_literal(v); }
}  // namespace jbench::oracle
