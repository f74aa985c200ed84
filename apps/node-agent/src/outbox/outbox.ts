import { mkdir, readdir, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { isTemporaryFile, readJsonFile, syncDir, writeFileAtomic } from '../lib/files.ts';
import type { NodeReport } from '../panel/panel-client.ts';

/** A report waiting in the outbox: what `POST /node/v1/report` takes, its sequence included. */
export type OutboxEntry = NodeReport & { sequence: number };
export type ReportBody = Omit<NodeReport, 'sequence'>;

const ENTRY = /^(\d{16})\.json$/;
const SEQUENCE_FILE = 'next-sequence';

const entryName = (sequence: number) => `${String(sequence).padStart(16, '0')}.json`;

/**
 * The node's reports on disk until the panel acknowledges them: one file per report, named by its
 * sequence, each written atomically (temp file, fsync, rename, fsync of the folder). A report gets
 * its sequence when it is written and keeps it through every resend and restart, so the panel
 * (which applies a sequence once) neither loses nor double-counts it.
 *
 * A new folder starts at the time in milliseconds (the panel keeps every sequence it applied for the
 * node, and a reinstalled node must not repeat one). The next sequence is persisted after the entry. A crash between the two leaves the counter behind
 * the entry; `open` takes the larger of the counter and the newest entry's sequence + 1, so a
 * sequence is never given twice.
 */
export class Outbox {
  private constructor(
    private readonly dir: string,
    private nextSequence: number,
  ) {}

  /** `firstSequence`: where a new folder starts (tests start at 1). */
  static async open(dir: string, firstSequence = Date.now()): Promise<Outbox> {
    await mkdir(path.join(dir, 'rejected'), { recursive: true, mode: 0o700 });
    let newest = 0;
    for (const name of await readdir(dir)) {
      if (isTemporaryFile(name)) await unlink(path.join(dir, name));
      const match = ENTRY.exec(name);
      if (match) newest = Math.max(newest, Number(match[1]));
    }
    const stored = Number(await readJsonFile(path.join(dir, SEQUENCE_FILE)));
    // A new state folder (a new or reinstalled node) starts at the time in milliseconds, so that it
    // never reuses a sequence the panel applied for this node before.
    const next = Math.max(Number.isSafeInteger(stored) && stored > 0 ? stored : firstSequence, newest + 1);
    return new Outbox(dir, next);
  }

  /** The sequence the next report will get. */
  get next(): number {
    return this.nextSequence;
  }

  /** Writes a report to disk with the next sequence; resolves once it is durable. */
  async add(report: ReportBody): Promise<OutboxEntry> {
    const entry: OutboxEntry = { sequence: this.nextSequence, ...report };
    await writeFileAtomic(path.join(this.dir, entryName(entry.sequence)), JSON.stringify(entry));
    this.nextSequence = entry.sequence + 1;
    await writeFileAtomic(path.join(this.dir, SEQUENCE_FILE), String(this.nextSequence));
    return entry;
  }

  /** The reports not yet acknowledged, oldest first. */
  async pending(): Promise<OutboxEntry[]> {
    const names = (await readdir(this.dir)).filter((name) => ENTRY.test(name)).sort();
    const entries: OutboxEntry[] = [];
    for (const name of names) {
      try {
        entries.push(JSON.parse(await readFile(path.join(this.dir, name), 'utf8')) as OutboxEntry);
      } catch {
        // Written atomically, so never half a file; one that is not JSON was not ours: set it aside.
        await rename(path.join(this.dir, name), path.join(this.dir, 'rejected', name));
      }
    }
    return entries;
  }

  /** The panel has the report: forget it. */
  async acknowledge(sequence: number): Promise<void> {
    await unlink(path.join(this.dir, entryName(sequence))).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await syncDir(this.dir);
  }

  /** The panel will never take the report: keep it aside for the operator, out of the queue. */
  async reject(sequence: number): Promise<void> {
    const name = entryName(sequence);
    await rename(path.join(this.dir, name), path.join(this.dir, 'rejected', name));
    await syncDir(this.dir);
  }
}
