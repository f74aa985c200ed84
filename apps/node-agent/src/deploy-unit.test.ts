import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The shipped systemd unit. Its stop must reach the agent alone: with the core signalled too (as
 * `KillMode=control-group` did), the core exits before the agent reads its counters, and the traffic
 * since the last report is lost. The journey in `panel-journey.test.ts` shows what the agent does with
 * a signal to its whole process group.
 */
const UNIT = path.join(import.meta.dirname, '../deploy/skyway-node-agent.service');
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';
const unitText = readFileSync(UNIT, 'utf8');

/** The unit's `[Service]` settings, comments left out. */
function serviceSettings(): Map<string, string> {
  const settings = new Map<string, string>();
  let section = '';
  for (const line of unitText.split('\n').map((entry) => entry.trim())) {
    if (line.startsWith('[')) section = line;
    else if (section === '[Service]' && line.includes('=') && !line.startsWith('#')) {
      const at = line.indexOf('=');
      settings.set(line.slice(0, at), line.slice(at + 1));
    }
  }
  return settings;
}

describe('the shipped systemd unit', () => {
  it('sends SIGTERM to the agent alone and gives its last report time', () => {
    const service = serviceSettings();
    // SIGTERM to the main process; SIGKILL to whatever is left only after the timeout or its death.
    expect(service.get('KillMode')).toBe('mixed');
    expect(service.get('KillSignal')).toBe('SIGTERM');
    // The agent's own stop: a core start it may be waiting for (15 s), 3 s for the outbox to reach
    // the panel, 5 s for the core to exit.
    expect(Number(service.get('TimeoutStopSec'))).toBeGreaterThanOrEqual(30);
  });

  it.skipIf(!existsSync(SYSTEMD_ANALYZE))('is read by systemd without a complaint', () => {
    // As shipped, with this machine's node in ExecStart (systemd checks the program exists).
    const dir = mkdtempSync(path.join(tmpdir(), 'node-agent-unit-'));
    try {
      const copy = path.join(dir, path.basename(UNIT));
      writeFileSync(copy, unitText.replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath}`));
      const verified = spawnSync(SYSTEMD_ANALYZE, ['verify', copy], { encoding: 'utf8' });
      expect(`${verified.stdout}${verified.stderr}`).toBe('');
      expect(verified.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
