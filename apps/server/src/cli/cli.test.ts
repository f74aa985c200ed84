import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';
import { startServerProcess } from '../testing/server-process.ts';
import { migratedDataDir, testDatabaseKind } from '../testing/test-database.ts';

const run = promisify(execFile);
const PUBLIC_URL = 'https://panel.example';
/** An installed site's embedded database, migrated, with nothing in it yet. */
const newDataDir = () => migratedDataDir('skyway-cli-');
let dataDir: string;
const cliWith = (env: Record<string, string>, dir: string, script: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script), ...args], {
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dir, PUBLIC_URL, ...env },
  });
const cliOn = (dir: string, script: string, ...args: string[]) => cliWith({}, dir, script, ...args);
const cli = (script: string, ...args: string[]) => cliOn(dataDir, script, ...args);
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * The command-line tools on an embedded database of their own, as an operator runs them: the same
 * whatever database the suite runs on, so run once, on PGlite.
 */
// Each test runs real processes through tsx, which on two busy cores took up to 20 s each to start.
describe.skipIf(testDatabaseKind === 'postgres')('the command-line tools', { timeout: 90_000 }, () => {
  let removeDataDir: () => void;
  beforeAll(async () => ({ dir: dataDir, remove: removeDataDir } = await newDataDir()));
  afterAll(() => removeDataDir());

  it('prints a set-up link for the first owner, and refuses a bad address', async () => {
    const { stdout } = await cli('admin.ts', 'invite-owner', 'first@example.com');
    expect(stdout).toMatch(/https:\/\/panel\.example\/admin\/setup\/[\w-]{43}\n/);
    // A new link for the same owner, on the back office's own address once it has one.
    const again = await cliWith(
      { ADMIN_PUBLIC_URL: 'https://admin.panel.example/' },
      dataDir,
      'admin.ts',
      'invite-owner',
      'first@example.com',
    );
    expect(again.stdout).toMatch(/\nhttps:\/\/admin\.panel\.example\/admin\/setup\/[\w-]{43}\n/);
    await expect(cli('admin.ts', 'invite-owner', 'not-an-address')).rejects.toMatchObject({ code: 2 });
    await expect(cli('admin.ts', 'promote', 'first@example.com')).rejects.toMatchObject({ code: 2 });
  });

  it('changes a setting and a price with an audit row each, as the command line', async () => {
    await cli('settings.ts', 'set', 'trial_minute', '60');
    await cli('settings.ts', 'price', 'month', '2600');
    await expect(cli('settings.ts', 'set', 'trial_minute', 'abc')).rejects.toMatchObject({ code: 2 });
    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db.select().from(auditLog).orderBy(auditLog.id);
      expect(rows.map((row) => [row.action, row.role, row.staffId, row.after])).toEqual([
        ['staff.invite', 'command_line', null, { email: 'first@example.com', role: 'owner' }],
        ['staff.invite', 'command_line', null, { email: 'first@example.com', role: 'owner' }],
        ['settings.change', 'command_line', null, { trial_minute: '60' }],
        ['plans.change_price', 'command_line', null, { unit_price: 2600 }],
      ]);
    } finally {
      await database.close();
    }
  });

  it('refuses the embedded database a server has open, and makes the first owner through that server', async () => {
    const { dir, remove } = await newDataDir();
    cleanups.push(remove);
    const server = await startServerProcess({ DATA_DIR: dir, PUBLIC_URL }, cleanups);
    expect(server.output()).toContain('no member of staff yet');

    const refused = await cliOn(dir, 'settings.ts', 'set', 'trial_minute', '60').catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toContain(
      `The embedded database in ${dir} is open in another process: the server (pid ${server.child.pid}, since `,
    );

    const { stdout } = await cliOn(dir, 'admin.ts', 'invite-owner', 'owner@example.com');
    const token = /https:\/\/panel\.example\/admin\/setup\/([\w-]{43})\n/.exec(stdout)?.[1] ?? '';
    // The link went to the command only, not to the server's log.
    expect(server.output()).not.toContain(token);
    const setup = await fetch(`http://127.0.0.1:${server.port}/admin/api/v1/setup/${token}`);
    expect(setup.status).toBe(200);
    expect(((await setup.json()) as { data: unknown }).data).toMatchObject({
      email: 'owner@example.com',
      role: 'owner',
    });
  }, 180_000);
});
