import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../log.ts';
import { PanelError, type NodeReportReply } from '../panel/panel-client.ts';
import { Outbox, type OutboxEntry } from './outbox.ts';
import { ReportSender } from './report-sender.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const newDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'node-agent-outbox-'));
  dirs.push(dir);
  return dir;
};
const id = crypto.randomUUID();
const report = (bytes: number) => ({
  from: 100,
  to: 160,
  traffic: [{ id, upload: 1, download: bytes }],
  addresses: [],
});

describe('the outbox', () => {
  it('numbers reports 1, 2, … and keeps them, and the numbering, across a restart', async () => {
    const dir = newDir();
    const outbox = await Outbox.open(dir, 1);
    expect((await outbox.add(report(10))).sequence).toBe(1);
    expect((await outbox.add(report(20))).sequence).toBe(2);
    await outbox.acknowledge(1);

    const reopened = await Outbox.open(dir, 1);
    expect(await reopened.pending()).toEqual([{ sequence: 2, ...report(20) }]);
    expect((await reopened.add(report(30))).sequence).toBe(3);
    await reopened.acknowledge(2);
    await reopened.acknowledge(3);
    // Everything acknowledged: the next report still does not reuse a sequence.
    expect((await Outbox.open(dir, 1)).next).toBe(4);
  });

  it('never gives a sequence twice when a crash left the counter behind the last entry', async () => {
    const dir = newDir();
    const outbox = await Outbox.open(dir, 1);
    await outbox.add(report(10));
    await outbox.add(report(20));
    // The crash came after entry 2 was written and before the counter was: it still says 2.
    writeFileSync(path.join(dir, 'next-sequence'), '2');
    // …and a temporary file of a write that never finished lies about.
    writeFileSync(path.join(dir, '.0000000000000003.json.abc.tmp'), '{"sequ');
    const reopened = await Outbox.open(dir, 1);
    expect(reopened.next).toBe(3);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect((await reopened.pending()).map((entry) => entry.sequence)).toEqual([1, 2]);
  });
});

describe('the report sender', () => {
  it('sends in order and resends the same sequence when the reply is lost', async () => {
    const dir = newDir();
    const outbox = await Outbox.open(dir, 1);
    for (const bytes of [10, 20, 30]) await outbox.add(report(bytes));
    const applied = new Map<number, number>();
    const calls: number[] = [];
    let loseNextReply = true;
    const post = async (entry: OutboxEntry): Promise<NodeReportReply> => {
      calls.push(entry.sequence);
      const first = !applied.has(entry.sequence);
      applied.set(entry.sequence, entry.traffic[0]?.download ?? 0);
      if (entry.sequence === 2 && loseNextReply) {
        loseNextReply = false;
        throw new PanelError(0, 'cannot reach the panel: ECONNRESET');
      }
      return { applied: first, sequence: entry.sequence };
    };
    const sender = new ReportSender(outbox, post, memoryLogger(), { baseMs: 10, maxMs: 20 });
    sender.start();
    expect(await sender.drained(5_000)).toBe(true);
    await sender.stop();
    expect(calls).toEqual([1, 2, 2, 3]);
    expect([...applied.values()].reduce((sum, bytes) => sum + bytes, 0)).toBe(60);
    expect(await outbox.pending()).toEqual([]);
  });

  it('sets aside a report the panel will never take, and goes on with the next', async () => {
    const dir = newDir();
    const outbox = await Outbox.open(dir, 1);
    await outbox.add(report(10));
    await outbox.add(report(20));
    const log = memoryLogger();
    const sender = new ReportSender(
      outbox,
      async (entry) => {
        if (entry.sequence === 1) throw new PanelError(400, 'traffic: too big', 'field_invalid');
        return { applied: true, sequence: entry.sequence };
      },
      log,
      { baseMs: 10, maxMs: 20 },
    );
    sender.start();
    expect(await sender.drained(5_000)).toBe(true);
    await sender.stop();
    expect(readdirSync(path.join(dir, 'rejected'))).toEqual(['0000000000000001.json']);
    expect(log.lines().map((line) => line.msg)).toEqual([
      'report refused by the panel, set aside',
      'report sent',
    ]);
  });

  it('is done with a report the panel took only in part, or took none of, and says so', async () => {
    const dir = newDir();
    const outbox = await Outbox.open(dir, 1);
    for (const bytes of [10, 20, 30]) await outbox.add(report(bytes));
    const log = memoryLogger();
    const calls: number[] = [];
    const sender = new ReportSender(
      outbox,
      async (entry) => {
        calls.push(entry.sequence);
        if (entry.sequence === 1) return { applied: true, sequence: 1, refused: 1 };
        if (entry.sequence === 2) return { applied: true, sequence: 2, implausible: true };
        return { applied: true, sequence: entry.sequence };
      },
      log,
      { baseMs: 10, maxMs: 20 },
    );
    sender.start();
    expect(await sender.drained(5_000)).toBe(true);
    await sender.stop();
    expect(calls).toEqual([1, 2, 3]);
    expect(await outbox.pending()).toEqual([]);
    expect(log.lines().map((line) => [line.level, line.msg])).toEqual([
      ['warn', 'report taken without the bytes of some credentials'],
      ['error', 'report refused: more than the line could carry'],
      ['info', 'report sent'],
    ]);
  });

  it('keeps trying while the panel is away, and sends what was added meanwhile', async () => {
    const dir = newDir();
    const outbox = await Outbox.open(dir, 1);
    let up = false;
    const sent: number[] = [];
    const sender = new ReportSender(
      outbox,
      async (entry) => {
        if (!up) throw new PanelError(503, 'maintenance');
        sent.push(entry.sequence);
        return { applied: true, sequence: entry.sequence };
      },
      memoryLogger(),
      { baseMs: 10, maxMs: 20 },
    );
    sender.start();
    await outbox.add(report(10));
    sender.wake();
    expect(await sender.drained(200)).toBe(false);
    await outbox.add(report(20));
    sender.wake();
    up = true;
    expect(await sender.drained(5_000)).toBe(true);
    await sender.stop();
    expect(sent).toEqual([1, 2]);
  });
});
