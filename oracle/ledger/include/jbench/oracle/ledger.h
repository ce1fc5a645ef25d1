// The ledger oracle in one include: config, verdict, verification, the storm driver.
// docs/oracle-ledger.md describes the schema, the ledger format and what is checked.
#pragma once

#include "jbench/oracle/ledger_config.h"
#include "jbench/oracle/ledger_database.h"
#include "jbench/oracle/ledger_phase.h"
#include "jbench/oracle/ledger_storm.h"
#include "jbench/oracle/ledger_verdict.h"
#include "jbench/oracle/ledger_verify.h"
