// The floor `npm run bench:api` measures the product against: a plain Fastify app whose signed-in
// call only runs `select 1`, on a pg pool of the product's size (DATABASE_URL) or on an in-memory
// PGlite (without it). No logs, no plugins. Plain JavaScript run by plain node, as the compiled
// product is. Listens on HOST and PORT; GET /healthz tells the harness it is up.
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import pg from 'pg';

/** The product's pool size (db/client.ts). */
const POOL_SIZE = 10;

async function openSelectOne() {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
    return { selectOne: () => pool.query('select 1 as one'), close: () => pool.end() };
  }
  const embedded = await PGlite.create();
  return { selectOne: () => embedded.query('select 1 as one'), close: () => embedded.close() };
}

const database = await openSelectOne();
const app = Fastify({ logger: false });
const answer = async () => ({ code: 200, msg: 'ok', data: (await database.selectOne()).rows[0] });
app.post('/web/user/info', answer);
app.get('/healthz', answer);

process.on('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});

await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT) });
