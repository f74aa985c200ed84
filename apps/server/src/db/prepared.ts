import type { Database } from './client.ts';

/**
 * A statement of the hot path, built and prepared once per database handle: Drizzle builds its SQL
 * once instead of on every call, and PostgreSQL parses and plans the named statement once per
 * connection (node-postgres keeps it on the connection; on PGlite every statement is kept prepared,
 * see `pglite-statements.ts`). Parameters
 * are `sql.placeholder(name)`, given to `execute`.
 */
export function preparedStatement<Statement>(
  build: (db: Database) => Statement,
): (db: Database) => Statement {
  const prepared = new WeakMap<Database, Statement>();
  return (db) => {
    let statement = prepared.get(db);
    if (!statement) {
      statement = build(db);
      prepared.set(db, statement);
    }
    return statement;
  };
}
