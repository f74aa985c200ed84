import { open, stat, truncate } from 'node:fs/promises';

/**
 * V2Ray 4's access log, one line per accepted connection:
 * `2026/11/25 01:31:36 127.0.0.2:41051 accepted tcp:127.0.0.1:8080 [direct] email: EMAIL`
 * (an IPv6 source is written `[::1]:41051`).
 */
const LINE = /^\S+ \S+ (?:tcp:|udp:)?(\[[^\]]+\]|[^\s\]]+):\d+ accepted .* email: (\S.*)$/;

/** The file is emptied once it grows past this (the core appends, so it carries on at the start). */
const TRUNCATE_AT_BYTES = 4 * 1024 * 1024;

/**
 * The source addresses of the connections each user opened, read from a core's access log: V2Ray
 * has no per-user online list, so "live" is "opened a connection since the last read". The core
 * writes the file in append mode; what was read is forgotten by emptying it now and then.
 */
export class AccessLogAddresses {
  private offset = 0;
  private partial = '';

  constructor(readonly file: string) {}

  /** Addresses per email since the last call. */
  async read(): Promise<Map<string, string[]>> {
    const size = await stat(this.file).then(
      (info) => info.size,
      () => 0,
    );
    if (size < this.offset) {
      // Emptied (or replaced): start from its beginning.
      this.offset = 0;
      this.partial = '';
    }
    let text = '';
    if (size > this.offset) {
      const handle = await open(this.file, 'r');
      try {
        const buffer = Buffer.alloc(size - this.offset);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
        this.offset += bytesRead;
        text = buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    }
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    if (this.offset >= TRUNCATE_AT_BYTES) {
      await truncate(this.file, 0);
      this.offset = 0;
    }
    return addressesByEmail(lines);
  }
}

export function addressesByEmail(lines: readonly string[]): Map<string, string[]> {
  const byEmail = new Map<string, Set<string>>();
  for (const line of lines) {
    const match = LINE.exec(line.trim());
    if (!match?.[1] || !match[2]) continue;
    const address = match[1].replace(/^\[|\]$/g, '');
    const email = match[2].trim();
    const addresses = byEmail.get(email) ?? new Set<string>();
    addresses.add(address);
    byEmail.set(email, addresses);
  }
  return new Map([...byEmail].map(([email, addresses]) => [email, [...addresses]]));
}
