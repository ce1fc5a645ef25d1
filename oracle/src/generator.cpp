#include "jbench/oracle/generator.h"

#include <array>
#include <functional>

#include "composer.h"
#include "jbench/common/random.h"

namespace jbench::oracle {

namespace {

// A query's shape for the record header: how many columns and how its rows compare.
struct QueryShape {
  std::string types;
  RowOrder order = RowOrder::multiset;
  std::vector<std::size_t> key;
  bool limit_ties = false;
};

// A query compared as a multiset.
QueryShape rows_of(std::string types) {
  QueryShape s;
  s.types = std::move(types);
  return s;
}

// ORDER BY <key> LIMIT ...: ordered on `key`, ties cut by the LIMIT allowed.
QueryShape top_rows_of(std::string types, std::size_t key) {
  QueryShape s = rows_of(std::move(types));
  s.order = RowOrder::ordered;
  s.key = {key};
  s.limit_ties = true;
  return s;
}

class Stream {
 public:
  Stream(const GeneratorOptions& o) : o_(o), rng_(mix64(o.seed ^ 0x6f7261636c65ULL)) {
    corpus_.file = generated_file_name(o.seed);
  }

  Corpus take() { return std::move(corpus_); }

  void schema() {
    statement("CREATE TABLE groups(grp INTEGER PRIMARY KEY, weight INTEGER NOT NULL)");
    // `note`, beyond the workload's own columns: nullable text, so that NULLs are ordered,
    // counted, compared and grouped, and text is ordered by its bytes (BINARY collation).
    statement(
        "CREATE TABLE items(id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, val INTEGER NOT NULL, "
        "payload BLOB NOT NULL, note TEXT)");
    statement("CREATE INDEX items_grp ON items(grp)");
    for (std::size_t g = 1; g <= o_.groups; ++g) {
      statement("INSERT INTO groups VALUES (?1, ?2)", {int_value(g), int_value(rng_.below(100))});
    }
    for (std::size_t i = 0; i < o_.items; ++i) insert_item();
  }

  void one() {
    std::uint64_t roll = rng_.below(100);
    if (roll < 8) {
      transaction_control();
    } else if (roll < 26) {
      write();
    } else {
      query();
    }
  }

 private:
  static Value int_value(std::uint64_t v) { return Value::integer(static_cast<std::int64_t>(v)); }
  Value grp() { return int_value(1 + rng_.below(o_.groups + 2)); }  // two groups with no row
  Value item_id() { return int_value(1 + rng_.below(next_id_ + 4)); }
  Value val() { return Value::integer(static_cast<std::int64_t>(rng_.below(200)) - 50); }
  // NULL one time in three; else a short text whose bytes order differently from its letters
  // ignoring case ("B" < "a" < "ab" < "b" in BINARY).
  Value note() {
    static const std::array<const char*, 6> notes = {"a", "ab", "b", "B", "ba", "a b"};
    if (rng_.below(3) == 0) return Value::null();
    return Value::text(notes[rng_.below(notes.size())]);
  }

  Record& add(RecordKind kind, std::string sql, std::vector<Value> params) {
    Record r;
    r.kind = kind;
    r.where = {corpus_.file, static_cast<std::uint32_t>(corpus_.records.size() + 1), 1};
    r.sql = std::move(sql);
    r.params = std::move(params);
    corpus_.records.push_back(std::move(r));
    return corpus_.records.back();
  }

  // Its outcome is compared between engines, not asserted: a generated write may fail on both
  // (a NOT NULL column set from an empty subquery, COMMIT with no transaction open).
  void statement(std::string sql, std::vector<Value> params = {}) {
    add(RecordKind::statement_ok, std::move(sql), std::move(params)).outcome_expected = false;
  }

  void insert_item() {
    std::string payload(1 + rng_.below(8), '\0');
    for (char& c : payload) c = static_cast<char>(rng_.below(256));
    statement("INSERT INTO items(grp, val, payload, note) VALUES (?1, ?2, ?3, ?4)",
              {grp(), val(), Value::blob(payload), note()});
    ++next_id_;
    ++live_;
  }

  void transaction_control() {
    std::uint64_t roll = rng_.below(6);
    if (!in_transaction_) {
      statement(roll < 4 ? "BEGIN" : "BEGIN IMMEDIATE");
      in_transaction_ = true;
    } else if (roll == 0 && savepoints_ < 3) {
      statement("SAVEPOINT sp" + std::to_string(++savepoints_));
    } else if (roll == 1 && savepoints_ > 0) {
      // ROLLBACK TO keeps the savepoint open; RELEASE ends it.
      statement("ROLLBACK TO sp" + std::to_string(savepoints_));
    } else if (roll == 2 && savepoints_ > 0) {
      statement("RELEASE sp" + std::to_string(savepoints_--));
    } else {
      statement(roll % 2 ? "COMMIT" : "ROLLBACK");
      in_transaction_ = false;
      savepoints_ = 0;
    }
  }

  // Inserts and deletes keep the table near its first size (the composed queries' correlated
  // subqueries cost its square): the generator counts the rows it meant to add and remove — a
  // rolled-back one is still counted, which the rollbacks of both kinds roughly cancel — and
  // leans towards whichever brings the count back inside half to one and a half times the start.
  void insert_or_delete() {
    const bool few = live_ * 2 < o_.items;
    const bool many = live_ * 2 > o_.items * 3;
    if (few || (!many && rng_.below(2) == 0)) {
      insert_item();
      return;
    }
    // The first row at or after a random id, else the first row: a delete that deletes while
    // there is a row (ids past the last are drawn too: a rolled-back insert uses no id).
    statement(
        "DELETE FROM items WHERE id = coalesce((SELECT min(id) FROM items WHERE id >= ?1), "
        "(SELECT min(id) FROM items))",
        {item_id()});
    if (live_ > 0) --live_;
  }

  void write() {
    switch (rng_.below(6)) {
      case 0:
      case 1:
        insert_or_delete();
        break;
      case 2:
        statement("UPDATE items SET val = val + ?1 WHERE grp = ?2", {val(), grp()});
        break;
      case 3:
        statement("UPDATE groups SET weight = ?1 WHERE grp = ?2",
                  {int_value(rng_.below(100)), grp()});
        break;
      case 4:
        statement("UPDATE items SET note = ?1 WHERE id = ?2", {note(), item_id()});
        break;
      default:
        // Moves items between groups through a scalar subquery: a write that reads.
        statement(
            "UPDATE items SET grp = (SELECT min(grp) FROM groups WHERE weight > ?1) WHERE id = ?2",
            {int_value(rng_.below(100)), item_id()});
        break;
    }
  }

  void query_record(const std::string& name, const QueryShape& shape, std::string sql,
                    std::vector<Value> params) {
    Record& r = add(RecordKind::query, std::move(sql), std::move(params));
    r.shape = name;
    r.column_types = shape.types;
    r.order = shape.order;
    r.order_key = shape.key;
    r.limit_ties = shape.limit_ties;
    if (r.limit_ties) r.unlimited = without_trailing_limit(r.sql, r.params);
    // Half of the executions go through the template's prepared statement, so re-execution with
    // new parameters after writes happens all the time.
    if (rng_.below(2) == 0) r.prepared = name;
  }

  // One query of the 27 templates, drawn uniformly: the workload's subqueries and CTEs (0-7), the
  // oracle's functions, random() and the rest of the workload's shapes (8-15), then more_shapes;
  // or, one time in three, a query composed from parts (composer.h).
  void query() {
    const std::size_t pick = rng_.below(40);
    if (pick >= 27) {
      composed_query();
    } else if (pick < 8) {
      subquery_shapes(pick);
    } else if (pick < 16) {
      function_shapes(pick);
    } else {
      more_shapes(pick);
    }
  }

  // Never prepared: its text is its own, so a template's prepared statement cannot hold it.
  void composed_query() {
    ComposedQuery q = composer_.query();
    Record& r = add(RecordKind::query, std::move(q.sql), {});
    r.shape = std::move(q.shape);
    r.column_types = std::string(q.columns, 'A');
    r.order = q.order;
    r.order_key = std::move(q.order_key);
  }

  void subquery_shapes(std::size_t pick) {
    static const std::array<const char*, 4> aggregates = {"count", "sum", "max", "min"};
    const QueryShape one_int = rows_of("I");
    switch (pick) {
      case 0: {
        std::string agg = aggregates[rng_.below(aggregates.size())];
        query_record("agg_" + agg, one_int,
                     "SELECT (SELECT " + agg + "(val) FROM items WHERE grp = ?1)", {grp()});
        break;
      }
      case 1:
        query_record("weight_by_id_range", rows_of("II"),
                     "SELECT id, (SELECT weight FROM groups g WHERE g.grp = items.grp) FROM items "
                     "WHERE id BETWEEN ?1 AND ?2",
                     {item_id(), item_id()});
        break;
      case 2:
        query_record("count_above_mean_weight", one_int,
                     "SELECT count(*) FROM items WHERE grp = ?1 AND val > (SELECT avg(weight) FROM "
                     "groups)",
                     {grp()});
        break;
      case 3:
        // Several rows: the first under a unique order.
        query_record("top_of_group", one_int,
                     "SELECT (SELECT id FROM items WHERE grp = ?1 ORDER BY val DESC, id)", {grp()});
        break;
      case 4:
        // Zero rows or one: NULL or the value, told apart by coalesce.
        query_record("val_or_default", one_int,
                     "SELECT coalesce((SELECT val FROM items WHERE id = ?1), ?2)",
                     {item_id(), Value::integer(-1000)});
        break;
      case 5:
        query_record("nested_cte", rows_of("II"),
                     "WITH per AS (SELECT grp, sum(val) AS s FROM items GROUP BY grp), "
                     "big AS (SELECT * FROM per WHERE s > ?1) "
                     "SELECT count(*), (SELECT max(s) FROM big) FROM big",
                     {val()});
        break;
      case 6:
        query_record("recursive_cte", rows_of("II"),
                     "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < ?1) "
                     "SELECT count(*), sum(n + (SELECT count(*) FROM groups)) FROM r",
                     {int_value(1 + rng_.below(40))});
        break;
      case 7:
        query_record("changes", rows_of("II"), "SELECT changes(), (SELECT changes())", {});
        break;
    }
  }

  void function_shapes(std::size_t pick) {
    const QueryShape one_int = rows_of("I");
    switch (pick) {
      case 8:
        query_record("udf_twice", one_int,
                     "SELECT jbench_twice((SELECT max(val) FROM items WHERE grp = ?1))", {grp()});
        break;
      case 9:
        // One call per selected row on any plan: only the counter's values are selected.
        query_record("udf_seq", one_int, "SELECT jbench_seq() FROM groups WHERE grp <= ?1",
                     {grp()});
        break;
      case 10:
        query_record("random_rows", one_int,
                     "SELECT count(*) FROM items WHERE grp = ?1 AND random() IS NOT NULL", {grp()});
        break;
      case 11:
        query_record("top_vals", top_rows_of("II", 1),
                     "SELECT id, val FROM items ORDER BY val DESC LIMIT ?1",
                     {int_value(1 + rng_.below(10))});
        break;
      case 12:
        query_record("per_group", rows_of("II"), "SELECT grp, count(*) FROM items GROUP BY grp",
                     {});
        break;
      case 13:
        query_record("exists_above", one_int,
                     "SELECT count(*) FROM groups g WHERE EXISTS (SELECT 1 FROM items i WHERE "
                     "i.grp = g.grp AND i.val > ?1)",
                     {val()});
        break;
      case 14:
        // An error on every engine: a scalar subquery of two columns.
        add(RecordKind::statement_error, "SELECT (SELECT id, val FROM items WHERE grp = ?1)",
            {grp()});
        break;
      case 15:
        query_record("outer_join_nulls", rows_of("IIR"),
                     "SELECT g.grp, count(i.id), avg(i.val) FROM groups g LEFT JOIN items i ON "
                     "i.grp = g.grp AND i.val > ?1 GROUP BY g.grp",
                     {val()});
        break;
    }
  }

  // Shapes beyond the workload's own statements, so that an engine cannot pass by knowing a
  // fixed set: DISTINCT, HAVING, LIKE, CASE, an inner join, a window function, LIMIT with
  // OFFSET over a unique key, and an UPSERT with RETURNING (a write whose answer is compared).
  void more_shapes(std::size_t pick) {
    switch (pick) {
      case 16:
        query_record("distinct_groups", rows_of("I"),
                     "SELECT DISTINCT grp FROM items WHERE val > ?1", {val()});
        break;
      case 17:
        query_record("having", rows_of("III"),
                     "SELECT grp, count(*), sum(val) FROM items GROUP BY grp HAVING count(*) > ?1",
                     {int_value(rng_.below(8))});
        break;
      case 18:
        query_record(
            "like_digits", rows_of("I"),
            "SELECT count(*) FROM items WHERE CAST(val AS TEXT) LIKE ?1",
            {Value::text((rng_.below(2) == 0 ? "%" : "") + std::to_string(rng_.below(10)) + "%")});
        break;
      case 19:
        query_record("case_sum", rows_of("II"),
                     "SELECT grp, sum(CASE WHEN val > ?1 THEN 1 WHEN val < ?2 THEN -1 ELSE 0 END) "
                     "FROM items GROUP BY grp",
                     {val(), val()});
        break;
      case 20:
        query_record("inner_join", rows_of("II"),
                     "SELECT i.id, g.weight FROM items i JOIN groups g ON g.grp = i.grp WHERE i.id "
                     "BETWEEN ?1 AND ?2",
                     {item_id(), item_id()});
        break;
      case 21:
        query_record("row_number", rows_of("II"),
                     "SELECT id, row_number() OVER (ORDER BY val, id) FROM items WHERE grp = ?1",
                     {grp()});
        break;
      case 22: {
        QueryShape page = rows_of("I");
        page.order = RowOrder::ordered;
        page.key = {0};  // a unique key: the page is exactly determined
        query_record("page", page, "SELECT id FROM items ORDER BY id LIMIT ?1 OFFSET ?2",
                     {int_value(1 + rng_.below(5)), int_value(rng_.below(next_id_ + 2))});
        break;
      }
      case 23:
        query_record("upsert_returning", rows_of("II"),
                     "INSERT INTO groups VALUES (?1, ?2) ON CONFLICT(grp) DO UPDATE SET weight = "
                     "excluded.weight RETURNING grp, weight",
                     {grp(), int_value(rng_.below(100))});
        break;
      default:
        null_shapes(pick);
        break;
    }
  }

  // NULLs and text: ordered both ways (SQLite puts NULLs first ascending, last descending),
  // counted and aggregated (count(note) and min/max skip them), and matched with IS, which
  // treats NULL as a value where = does not.
  void null_shapes(std::size_t pick) {
    switch (pick) {
      case 24: {
        QueryShape ordered = rows_of("IT");
        ordered.order = RowOrder::ordered;
        ordered.key = {1, 0};  // (note, id): unique, so the whole order is determined
        const bool descending = rng_.below(2) == 0;
        query_record(descending ? "notes_descending" : "notes_ascending", ordered,
                     std::string("SELECT id, note FROM items WHERE grp = ?1 ORDER BY note") +
                         (descending ? " DESC" : "") + ", id",
                     {grp()});
        break;
      }
      case 25:
        query_record("note_counts", rows_of("IIITT"),
                     "SELECT grp, count(note), count(*), min(note), max(note) FROM items GROUP BY "
                     "grp",
                     {});
        break;
      default:
        query_record("note_is", rows_of("II"),
                     "SELECT count(*), sum(note = ?1) FROM items WHERE note IS ?1 OR grp = ?2",
                     {note(), grp()});
        break;
    }
  }

  const GeneratorOptions& o_;
  SplitMix64 rng_;
  Composer composer_{rng_};
  Corpus corpus_;
  std::uint64_t next_id_ = 0;
  std::uint64_t live_ = 0;  // rows of items the stream meant to leave (insert_or_delete)
  bool in_transaction_ = false;
  std::size_t savepoints_ = 0;
};

}  // namespace

std::string generated_file_name(std::uint64_t seed) {
  return "generated:seed=" + std::to_string(seed);
}

Corpus generate_stream(const GeneratorOptions& options) {
  Stream s(options);
  s.schema();
  for (std::size_t i = 0; i < options.statements; ++i) s.one();
  return s.take();
}

std::vector<PlanQuery> generate_plan_queries(std::uint64_t seed, std::size_t count) {
  SplitMix64 rng(mix64(seed ^ 0x706c616e73ULL));
  Composer composer(rng);
  std::vector<PlanQuery> out;
  for (std::size_t k = 0; k < count; ++k) {
    ComposedQuery q = composer.query();
    PlanQuery p;
    p.sql = std::move(q.sql);
    p.normalization.order = q.order;
    p.normalization.order_key = std::move(q.order_key);
    p.shape = std::move(q.shape);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<TlpCase> generate_predicate_cases(std::uint64_t seed, std::size_t count) {
  SplitMix64 rng(mix64(seed ^ 0x7072656469636174ULL));
  // Row sources with NULLs: a LEFT JOIN leaves the right side NULL where nothing matches.
  // Every source names items i and groups g, and leaves one side NULL on some rows.
  static const std::array<const char*, 3> sources = {
      "SELECT i.id, i.grp, i.val, g.weight FROM items i LEFT JOIN groups g ON g.grp = i.grp",
      "SELECT g.grp, g.weight, i.val FROM groups g LEFT JOIN items i ON i.grp = g.grp AND "
      "i.val > 100",
      "SELECT i.id, g.weight, i.val FROM items i LEFT JOIN groups g ON g.grp = i.grp + 1"};
  static const std::array<const char*, 10> predicates = {
      "i.val > ?1",
      "g.weight < ?1 + 50",
      "i.val BETWEEN ?1 AND ?1 + 40",
      "i.val > (SELECT avg(weight) FROM groups) - ?1",
      "g.weight IN (SELECT val - ?1 FROM items)",
      "(i.val > ?1) = (g.weight % 2 = 0)",
      "coalesce(g.weight, ?1) < 10",
      "i.val + ?1 > (SELECT max(val) FROM items WHERE grp = 1)",
      "NOT (g.weight < ?1 OR i.val IS NULL)",
      "g.weight + i.val > ?1"};
  // Half the predicates are composed (composer.h) over the sources' i and g, without parameters.
  Composer composer(rng);
  std::vector<TlpCase> out;
  for (std::size_t k = 0; k < count; ++k) {
    TlpCase c;
    c.select_from = sources[rng.below(sources.size())];
    if (rng.below(2) == 0) {
      c.predicate = composer.predicate({"i", "g"});
    } else {
      c.predicate = predicates[rng.below(predicates.size())];
      c.params = {Value::integer(static_cast<std::int64_t>(rng.below(200)) - 50)};
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace jbench::oracle
