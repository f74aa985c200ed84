import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AccessLogAddresses, addressesByEmail } from './access-log.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'node-agent-access-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the V2Ray access log', () => {
  it('reads each line’s source address and user, IPv6 and refused connections too', () => {
    expect(
      addressesByEmail([
        '2026/11/25 01:31:36 127.0.0.2:41051 accepted tcp:127.0.0.1:18080 [direct] email: slot-a',
        '2026/11/25 01:31:36 127.0.0.3:42903 accepted tcp:127.0.0.1:18080 [blocked] email: slot-a',
        '2026/11/25 01:31:37 127.0.0.2:41052 accepted tcp:example.com:443 [direct] email: slot-a',
        '2026/11/25 01:31:38 [2001:db8::5]:5000 accepted udp:1.1.1.1:53 [direct] email: slot-b',
        '2026/11/25 01:31:39 127.0.0.9:6000 accepted tcp:127.0.0.1:80 [direct]',
        '2026/11/25 01:31:40 127.0.0.9:6001 rejected  v2ray.com/core/proxy/vless/inbound: invalid request user id',
      ]),
    ).toEqual(
      new Map([
        ['slot-a', ['127.0.0.2', '127.0.0.3']],
        ['slot-b', ['2001:db8::5']],
      ]),
    );
  });

  it('reads what was written since the last read, a half-written line once it is whole, and after the file is emptied', async () => {
    const file = path.join(dir, 'access.log');
    const log = new AccessLogAddresses(file);
    expect(await log.read()).toEqual(new Map());
    writeFileSync(file, '2026/11/25 01:31:36 127.0.0.2:1 accepted tcp:a:1 [direct] email: one\n2026/11/25');
    expect(await log.read()).toEqual(new Map([['one', ['127.0.0.2']]]));
    appendFileSync(file, ' 01:31:37 127.0.0.3:2 accepted tcp:a:1 [direct] email: two\n');
    expect(await log.read()).toEqual(new Map([['two', ['127.0.0.3']]]));
    expect(await log.read()).toEqual(new Map());
    writeFileSync(file, '2026/11/25 01:31:38 127.0.0.4:3 accepted tcp:a:1 [direct] email: three\n');
    expect(await log.read()).toEqual(new Map([['three', ['127.0.0.4']]]));
  });
});
