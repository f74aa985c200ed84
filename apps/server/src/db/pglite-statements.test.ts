import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATEMENTS_KEPT, type StatementClient, withPreparedStatements } from './pglite-statements.ts';

let client: PGlite;
let statements: StatementClient;

beforeAll(async () => {
  client = await PGlite.create('memory://');
  await client.exec(`
    create table things (id serial primary key, name text unique not null, seen timestamptz, tags text[],
                         facts jsonb, amount numeric(10, 2));`);
  statements = withPreparedStatements(client);
});
afterAll(() => client.close());

const prepared = async (text: string) =>
  (
    await client.query<{ count: number }>(
      'select count(*)::int as count from pg_prepared_statements where statement = $1',
      [text],
    )
  ).rows[0]?.count;

const DRIZZLE_PARSERS = { [types.TIMESTAMPTZ]: (value: string) => value };

describe('PGlite with prepared statements', () => {
  it("answers as PGlite's own query does: rows, fields, counts, parsers and serializers", async () => {
    const insert =
      'insert into things (name, seen, tags, facts, amount) values ($1, $2, $3, $4, $5) returning *';
    const values = ['a', new Date('2026-01-02T03:04:05Z'), ['x', 'y'], { deep: [1, 2] }, '12.50'];
    const ours = await statements.query<Record<string, unknown>>(insert, values);
    const theirs = await client.query<Record<string, unknown>>(insert, ['b', ...values.slice(1)]);
    expect({ ...ours, rows: ours.rows.map((row) => ({ ...row, id: 0, name: '' })) }).toEqual({
      ...theirs,
      rows: theirs.rows.map((row) => ({ ...row, id: 0, name: '' })),
    });
    expect(ours.rows[0]).toMatchObject({
      name: 'a',
      tags: ['x', 'y'],
      facts: { deep: [1, 2] },
      amount: '12.50',
    });
    expect(ours.affectedRows).toBe(1);

    const select = 'select id, name, seen from things where name = any($1) order by name';
    const options = { rowMode: 'array' as const, parsers: DRIZZLE_PARSERS };
    expect(await statements.query(select, [['a', 'b']], options)).toEqual(
      await client.query(select, [['a', 'b']], options),
    );
    const update = 'update things set seen = null where name = $1';
    expect((await statements.query(update, ['zzz'])).affectedRows).toBe(0);
  });

  it('parses and plans a statement once, however often it runs', async () => {
    const text = 'select name from things where id = $1';
    for (let i = 0; i < 5; i++) await statements.query(text, [1]);
    expect(await prepared(text)).toBe(1);
    expect((await statements.query<{ name: string }>(text, [1])).rows).toEqual([{ name: 'a' }]);
  });

  it('passes errors on with their code and goes on working', async () => {
    const insert = 'insert into things (name) values ($1)';
    await expect(statements.query(insert, ['a'])).rejects.toMatchObject({ code: '23505' });
    await expect(statements.query('select nonsense from things', [])).rejects.toMatchObject({
      code: '42703',
    });
    await statements.query(insert, ['c']);
    expect((await statements.query('select count(*)::int as n from things', [])).rows).toEqual([{ n: 3 }]);
  });

  it('runs statements inside transactions, and keeps others out until the transaction ends', async () => {
    const count = 'select count(*)::int as n from things';
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = statements.transaction(async (tx) => {
      await tx.query('insert into things (name) values ($1)', ['in transaction']);
      expect((await tx.query(count)).rows).toEqual([{ n: 4 }]);
      await held;
      await tx.rollback();
    });
    // Sent while the transaction is open: it must not run inside it, nor see its row.
    const outside = statements.query(count, []);
    let answered = false;
    void outside.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release();
    await transaction;
    expect((await outside).rows).toEqual([{ n: 3 }]);
  });

  it(`keeps at most ${STATEMENTS_KEPT} statements prepared, closing the one used longest ago`, async () => {
    const first = 'select 0 as n';
    await statements.query(first, []);
    for (let i = 1; i <= STATEMENTS_KEPT; i++) await statements.query(`select ${i} as n`, []);
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_prepared_statements',
    );
    expect(rows[0]?.n).toBe(STATEMENTS_KEPT);
    expect(await prepared(first)).toBe(0);
    expect((await statements.query(first, [])).rows).toEqual([{ n: 0 }]);
  });
});
