import pg from 'pg';

/** The URL of database `name` on the same PostgreSQL server as `url`. */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Runs one statement (`create database`, `drop database`) over a connection of its own. */
export async function onServer(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The PostgreSQL server a measurement command makes its scratch database on: DATABASE_URL, else
 * TEST_DATABASE_URL. Without either the command says what it needs and exits.
 */
export function scratchServerUrl(command: string): string {
  const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (url) return url;
  console.error(
    `npm run ${command} needs DATABASE_URL or TEST_DATABASE_URL: a PostgreSQL server on which it may ` +
      'create a database, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres',
  );
  process.exit(1);
}
