import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One process at a time on an embedded database: PGlite keeps no lock of its own, and two processes
 * writing one data directory corrupt it. The holder writes `skyway.pid` in the directory (created
 * only if absent) with its pid and its start time; a process that finds the file checks that the
 * holder still runs (`kill(pid, 0)`) and is the same process (its start time, on Linux, so a pid
 * reused after a crash or in a restarted container does not count). A holder that died, even by
 * SIGKILL, leaves a file the next process replaces: no stale lock ever blocks a start. This is how
 * PostgreSQL guards its own data directory with `postmaster.pid`.
 */
const LOCK_FILE = 'skyway.pid';

interface Holder {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), null where the system has no /proc. */
  started: string | null;
  /** What the process is, for the message a second process gets ("the server", "npm run settings"). */
  name: string;
  since: string;
}

/** Another live process has the embedded database open: nothing was touched. */
export class DataDirectoryBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder,
  ) {
    super(
      `The embedded database in ${dataDir} is open in another process: ${holder.name} ` +
        `(pid ${holder.pid}, since ${holder.since}). Two processes must never open it at once: ` +
        'stop that one first (Ctrl-C in its terminal), or set DATABASE_URL to a PostgreSQL database, ' +
        'which several processes share.',
    );
    this.name = 'DataDirectoryBusyError';
  }
}

/** Field 22 of /proc/PID/stat, counted after the command name, which may itself hold spaces. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isRunning(holder: Holder | undefined): holder is Holder {
  if (!holder || !Number.isInteger(holder.pid) || holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = startTimeOf(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

/** The file's text and its holder (none when it is half written by a process that died writing it). */
function readHolder(file: string): { text: string; holder?: Holder } | undefined {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return { text, holder: JSON.parse(text) as Holder };
  } catch {
    return { text };
  }
}

function removeIfStill(file: string, text: string): void {
  if (readHolder(file)?.text !== text) return;
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

const held = new Map<string, string>();
process.on('exit', () => {
  // A command that exits early (process.exit) without closing the database still leaves no file.
  for (const file of held.keys()) releaseFile(file);
});

function releaseFile(file: string): void {
  const mine = held.get(file);
  held.delete(file);
  if (mine !== undefined) removeIfStill(file, mine);
}

/**
 * Takes the data directory for this process, or throws DataDirectoryBusyError naming the holder.
 * Returns the release, which the database's close calls.
 */
export function lockDataDirectory(dataDir: string, name: string): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  const mine = JSON.stringify({
    pid: process.pid,
    started: startTimeOf(process.pid),
    name,
    since: new Date().toISOString(),
  } satisfies Holder);
  // A few turns at most: each one either takes the file or finds a live holder, unless another
  // process replaced the same stale file at the same moment.
  for (let turn = 0; turn < 5; turn++) {
    try {
      writeFileSync(file, mine, { flag: 'wx' });
      held.set(file, mine);
      return () => releaseFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const found = readHolder(file);
    if (!found) continue;
    if (isRunning(found.holder)) throw new DataDirectoryBusyError(dataDir, found.holder);
    // Stale: removed only if it is still the file just read, so a newcomer's fresh one stays.
    removeIfStill(file, found.text);
  }
  throw new Error(`could not take ${file}: other processes keep replacing it`);
}
