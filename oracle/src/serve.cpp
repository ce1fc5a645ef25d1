#include "jbench/oracle/serve.h"

#include <istream>
#include <ostream>

#include "jbench/oracle/protocol.h"

namespace jbench::oracle {

Hello hello_of(const Target& engine, const std::string& engine_name) {
  return {engine_name, engine.supports_prepared(), engine.optimizations()};
}

ResultSet answer_request(Target& engine, const RunRequest& r) {
  if (r.switch_off) {
    ResultSet done;
    if (Status s = engine.switch_off(*r.switch_off); !s) done.error = {1, s.error().message};
    return done;
  }
  return r.statement.empty() ? engine.run(r.sql, r.params)
                             : engine.run_prepared(r.statement, r.sql, r.params);
}

int serve_protocol(Target& engine, std::istream& in, std::ostream& out, std::ostream& err,
                   const std::string& engine_name) {
  out << encode_hello(hello_of(engine, engine_name)) << std::endl;
  std::string line;
  while (std::getline(in, line)) {
    const auto d = decode_request(line);
    if (!d) {
      err << "jbench-oracle: a request breaks the protocol: " << d.error().message << "\n";
      return 2;
    }
    if (!d->has_value()) return 0;  // quit
    const RunRequest& r = **d;
    ResultSet result = answer_request(engine, r);
    // Flushed per answer: jbench waits for each one before it sends the next request.
    out << encode_response(r.id, result) << std::endl;
  }
  return 0;
}

}  // namespace jbench::oracle
