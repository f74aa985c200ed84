import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../lib/backoff.ts';
import { SseParser } from './sse-parser.ts';

describe('the server-sent events parser', () => {
  it('dispatches on a blank line, joins data lines and skips comments', () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\n\nevent: changed\ndata: {"revision"')).toEqual([]);
    expect(parser.push(': 7}\nid: 3\n\n')).toEqual([{ event: 'changed', data: '{"revision": 7}', id: '3' }]);
    // The last event id carries over to later events, as in browsers.
    expect(parser.push('data: a\ndata:b\n\n')).toEqual([{ event: 'message', data: 'a\nb', id: '3' }]);
  });

  it('takes CRLF and CR line ends, even split across chunks', () => {
    const parser = new SseParser();
    expect(parser.push('event: changed\r\ndata: 1\r')).toEqual([]);
    expect(parser.push('\n\r\n')).toEqual([{ event: 'changed', data: '1' }]);
    expect(parser.push('data: 2\r\r')).toEqual([{ event: 'message', data: '2' }]);
  });

  it('ignores an event without data', () => {
    expect(new SseParser().push('event: changed\n\n')).toEqual([]);
  });
});

describe('the backoff', () => {
  it('doubles up to the ceiling, jittered between half and all of it', () => {
    const options = { baseMs: 1_000, maxMs: 8_000 };
    expect([0, 1, 2, 3, 4, 10].map((n) => backoffDelay(n, { ...options, random: () => 1 }))).toEqual([
      1_000, 2_000, 4_000, 8_000, 8_000, 8_000,
    ]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, { ...options, random: () => 0 }))).toEqual([
      500, 1_000, 2_000, 4_000,
    ]);
  });
});
