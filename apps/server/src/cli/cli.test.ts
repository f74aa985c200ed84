import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(tmpdir(), 'skyway-cli-'));
const cli = (script: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script), ...args], {
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PUBLIC_URL: 'https://panel.example' },
  });

/** The command-line tools on an embedded database of their own, as an operator runs them. */
describe('the command-line tools', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints a set-up link for the first owner, and refuses a bad address', async () => {
    const { stdout } = await cli('admin.ts', 'invite-owner', 'first@example.com');
    expect(stdout).toMatch(/https:\/\/panel\.example\/admin\/setup\/[\w-]{43}\n/);
    await expect(cli('admin.ts', 'invite-owner', 'not-an-address')).rejects.toMatchObject({ code: 2 });
    await expect(cli('admin.ts', 'promote', 'first@example.com')).rejects.toMatchObject({ code: 2 });
  }, 60_000);

  it('changes a setting and a price with an audit row each, as the command line', async () => {
    await cli('settings.ts', 'set', 'trial_minute', '60');
    await cli('settings.ts', 'price', 'month', '2600');
    await expect(cli('settings.ts', 'set', 'trial_minute', 'abc')).rejects.toMatchObject({ code: 2 });
    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db.select().from(auditLog).orderBy(auditLog.id);
      expect(rows.map((row) => [row.action, row.role, row.staffId, row.after])).toEqual([
        ['staff.invite', 'command_line', null, { email: 'first@example.com', role: 'owner' }],
        ['settings.change', 'command_line', null, { trial_minute: '60' }],
        ['plans.change_price', 'command_line', null, { unit_price: 2600 }],
      ]);
    } finally {
      await database.close();
    }
  }, 60_000);
});
