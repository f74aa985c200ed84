import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type SeededRandom, seededRandom } from './harness/random.ts';

/** One malformed request. Everything in it comes from the seed, so a failure reproduces. */
export interface FuzzCase {
  id: number;
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Sent with a live session token, so calls that need one get past sign-in to validation and the handler. */
  signedIn: boolean;
}

/** Every `/web/` and `/node/v1/` call the server registers, read from its source (route files and their path constants). */
export function callRoutesInSource(): string[] {
  const modules = path.resolve(import.meta.dirname, '../src/modules');
  const routes = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        for (const match of readFileSync(file, 'utf8').matchAll(
          /['"`](\/(?:web|node\/v1)\/[a-z_/]+)['"`]/g,
        )) {
          if (match[1]) routes.add(match[1]);
        }
      }
    }
  };
  visit(modules);
  return [...routes].sort();
}

const EMAIL = 'fuzz.target@example.com';
const ORDER_ID = '20260101000000012345678';

/** A well-formed body per call, so that poisoning one field reaches that field's handling. */
const VALID: Record<string, Record<string, string | number>> = {
  '/web/login/verify_email': { email: EMAIL, scene: 'register' },
  '/web/login/register': {
    email: EMAIL,
    password: 'fuzz-password-123',
    email_code: '123456',
    invite_code: 'ABCDEFGH',
  },
  '/web/login/login': { email: EMAIL, password: 'fuzz-password-123' },
  '/web/login/forget': { email: EMAIL, email_code: '123456', password: 'fuzz-password-123' },
  '/web/login/email': { email: EMAIL, email_code: '123456' },
  '/web/login/pass': { old_pwd: 'not-the-password', new_pwd: 'fuzz-password-456' },
  '/web/invite/list': { page: 1, size: 10 },
  '/web/order/list': { page: 1, size: 10 },
  '/web/order/create': { period: 'month', connections: 1, pay_method: 'card' },
  '/web/order/query': { order_id: ORDER_ID },
  '/web/order/cancel': { order_id: ORDER_ID },
  '/web/coupon/check': { code: 'FUZZ-CODE', period: 'month', connections: 1 },
  '/web/redeem': { code: 'ABCD-EFGH-JKMN-PQRS-TUVW' },
  '/web/pay/apple/notify': { signedPayload: 'eyJhbGciOiJub25lIn0.e30.' },
  '/web/pay/stripe/notify': { id: 'evt_fuzz', type: 'checkout.session.completed' },
};

const STRING_FIELDS = [
  'email',
  'password',
  'scene',
  'email_code',
  'invite_code',
  'old_pwd',
  'new_pwd',
  'period',
  'pay_method',
  'order_id',
  'l',
  'signedPayload',
  'code',
  'coupon_code',
];
const NUMBER_FIELDS = ['connections', 'page', 'size'];
const ALL_FIELDS = [...STRING_FIELDS, ...NUMBER_FIELDS];

/** JSON text of values of the wrong type for any field (of the customer calls and the back office's API). */
export const WRONG_VALUES = [
  '123',
  '-1',
  '0',
  'true',
  'false',
  'null',
  '[]',
  '["a"]',
  '{}',
  '{"a":1}',
  '1.5',
  '""',
  '" "',
  JSON.stringify('x'.repeat(300)),
  '"<script>alert(1)</script>"',
  '"../../etc/passwd"',
  `"' or 1=1 --"`,
  '"__proto__"',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '"😀\\u200b\\u202e"',
];

export const HUGE_NUMBERS = [
  '1e308',
  '-1e308',
  '1e309',
  '123456789012345678901234567890',
  '-0',
  '0.000001',
  '9007199254740993',
  '1e-400',
  '2e9',
  '-2147483649',
  '"1e400"',
  '"0x10"',
  '" 5 "',
  '"Infinity"',
  '"NaN"',
  '"99999999999999999999"',
];

const CONTAINERS_FOR_STRINGS = [
  '["fuzz@example.com"]',
  '{"$ne":""}',
  '[[]]',
  '[{"a":1}]',
  '{"toString":"x"}',
];

export const INVALID_JSON = [
  '{',
  '}',
  '{"email":',
  '{"email": "a@b.c",}',
  "{'email': 'a'}",
  '[1,2',
  '{"a":1}}',
  'nul',
  'NaN',
  '{"a": NaN}',
  '{"a": Infinity}',
  '\uFEFF{"a":1}',
  '{"a":"\\ud800"}',
  '{"a":"\\u00"}',
  '{"a":01}',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '"just a string"',
  '123',
  'true',
  'null',
  '[]',
  '{"a":1}\u0000',
  '\u0000',
  ' '.repeat(1000),
  `{"a":"${'x'.repeat(100)}`,
  '{"a":1,"a":2}',
];

export const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/octet-stream',
  'image/png',
  'text/html',
  'application/json; charset=utf-16',
  'application/json; charset=iso-8859-1',
  'application/x-www-form-urlencoded; charset=utf-16',
  'multipart/mixed; boundary=x',
  ';;;',
  'application/json, text/plain',
  '*/*',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary="unterminated',
];

const ODD_METHODS = [
  'GET',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'PROPFIND',
  'SEARCH',
  'LOCK',
  'MKCOL',
  'TRACE',
];

const BOUNDARY = '----skywayfuzz7MA4YWxkTrZu0gW';

const json = (fields: Record<string, string>) =>
  `{${Object.entries(fields)
    .map(([key, raw]) => `${JSON.stringify(key)}:${raw}`)
    .join(',')}}`;

const asJsonFields = (valid: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(valid).map(([key, value]) => [key, JSON.stringify(value)]));

function multipart(fields: [string, Buffer | string][], file?: { name: string; content: string }): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`));
    parts.push(Buffer.isBuffer(value) ? value : Buffer.from(value));
    parts.push(Buffer.from('\r\n'));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.name}"; filename="fuzz.bin"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n${file.content}\r\n`,
      ),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const MULTIPART_TYPE = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

type Draft = Omit<FuzzCase, 'id' | 'signedIn'>;

/** A field's value with a NUL inside, in each encoding. */
function withNul(rng: SeededRandom, route: string, field: string): Draft {
  const valid = { ...(VALID[route] ?? {}) };
  const base = String(valid[field] ?? 'value');
  const at = rng.int(base.length + 1);
  const poisoned = `${base.slice(0, at)}\u0000${base.slice(at)}`;
  const encoding = rng.pick(['json', 'form', 'multipart'] as const);
  const kind = `nul-in-${field}-${encoding}`;
  const fields = {
    ...Object.fromEntries(Object.entries(valid).map(([k, v]) => [k, String(v)])),
    [field]: poisoned,
  };
  if (encoding === 'json') {
    return {
      kind,
      method: 'POST',
      path: route,
      headers: JSON_TYPE,
      body: Buffer.from(JSON.stringify(fields)),
    };
  }
  if (encoding === 'form') {
    return {
      kind,
      method: 'POST',
      path: route,
      headers: FORM_TYPE,
      body: Buffer.from(new URLSearchParams(fields).toString()),
    };
  }
  return {
    kind,
    method: 'POST',
    path: route,
    headers: MULTIPART_TYPE,
    body: multipart(Object.entries(fields)),
  };
}

type Generator = (rng: SeededRandom, route: string) => Draft;

const post = (
  kind: string,
  route: string,
  headers: Record<string, string>,
  body: string | Buffer,
): Draft => ({
  kind,
  method: 'POST',
  path: route,
  headers,
  body: Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'),
});

const GENERATORS: Record<string, Generator> = {
  'wrong-types': (rng, route) => {
    const fields = asJsonFields(VALID[route] ?? {});
    for (let i = 0, n = 1 + rng.int(3); i < n; i += 1) fields[rng.pick(ALL_FIELDS)] = rng.pick(WRONG_VALUES);
    return post('wrong-types', route, JSON_TYPE, json(fields));
  },
  'invalid-json': (rng, route) => post('invalid-json', route, JSON_TYPE, rng.pick(INVALID_JSON)),
  'deep-nesting': (rng, route) => {
    const depth = rng.pick([100, 1000, 10_000]);
    const shape = rng.pick(['array', 'object', 'in-field', 'form'] as const);
    if (shape === 'form') {
      return post(`deep-nesting-form-${depth}`, route, FORM_TYPE, `${'email'}${'[a]'.repeat(depth)}=x`);
    }
    const nested =
      shape === 'object'
        ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
        : `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const body = shape === 'in-field' ? json({ ...asJsonFields(VALID[route] ?? {}), email: nested }) : nested;
    return post(`deep-nesting-${shape}-${depth}`, route, JSON_TYPE, body);
  },
  'huge-numbers': (rng, route) => {
    const fields = asJsonFields(VALID[route] ?? {});
    fields[rng.pick([...NUMBER_FIELDS, 'order_id', 'email_code'])] = rng.pick(HUGE_NUMBERS);
    return post('huge-numbers', route, JSON_TYPE, json(fields));
  },
  'containers-for-strings': (rng, route) => {
    const fields = asJsonFields(VALID[route] ?? {});
    fields[rng.pick(STRING_FIELDS)] = rng.pick(CONTAINERS_FOR_STRINGS);
    return post('containers-for-strings', route, JSON_TYPE, json(fields));
  },
  'nul-chars': (rng, route) =>
    withNul(
      rng,
      route,
      rng.pick(['invite_code', 'order_id', 'email', 'password', 'email_code', 'old_pwd', 'scene']),
    ),
  'invalid-utf8': (rng, route) => {
    const bad = rng.pick([
      Buffer.from([0xff, 0xfe]),
      Buffer.from([0xc0, 0xaf]),
      Buffer.from([0x80]),
      Buffer.from([0xed, 0xa0, 0x80]),
    ]);
    const encoding = rng.pick(['json', 'form', 'multipart'] as const);
    if (encoding === 'json') {
      return post(
        'invalid-utf8-json',
        route,
        JSON_TYPE,
        Buffer.concat([
          Buffer.from('{"email":"fuzz'),
          bad,
          Buffer.from('@example.com","password":"p'),
          bad,
          Buffer.from('ssword-123","order_id":"'),
          bad,
          Buffer.from('"}'),
        ]),
      );
    }
    if (encoding === 'form') {
      const escaped = [...bad].map((byte) => `%${byte.toString(16)}`).join('');
      return post(
        'invalid-utf8-form',
        route,
        FORM_TYPE,
        `email=fuzz${escaped}%40example.com&password=p${escaped}&order_id=${escaped}`,
      );
    }
    return post(
      'invalid-utf8-multipart',
      route,
      MULTIPART_TYPE,
      multipart([
        ['email', Buffer.concat([Buffer.from('fuzz'), bad, Buffer.from('@example.com')])],
        ['order_id', bad],
      ]),
    );
  },
  'multipart-no-boundary': (rng, route) =>
    post(
      'multipart-no-boundary',
      route,
      {
        'content-type': rng.pick([
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'multipart/form-data; charset=utf-8',
        ]),
      },
      multipart([['email', EMAIL]]),
    ),
  'multipart-files': (rng, route) => {
    const fields = Object.entries(VALID[route] ?? { a: 'b' }).map(
      ([k, v]) => [k, String(v)] as [string, string],
    );
    if (rng.chance(0.3)) {
      const many = Array.from({ length: 150 }, (_, i) => [`field${i}`, 'x'] as [string, string]);
      return post('multipart-too-many-fields', route, MULTIPART_TYPE, multipart(many));
    }
    return post(
      'multipart-file',
      route,
      MULTIPART_TYPE,
      multipart(fields, { name: rng.pick(['avatar', 'email', 'file']), content: 'GIF89a\u0000\u0001' }),
    );
  },
  'multipart-broken': (rng, route) => {
    const whole = multipart([
      ['email', EMAIL],
      ['password', 'fuzz-password-123'],
    ]);
    const variant = rng.pick(['truncated', 'other-boundary', 'no-disposition', 'no-crlf'] as const);
    const body =
      variant === 'truncated'
        ? whole.subarray(0, rng.int(whole.length))
        : variant === 'other-boundary'
          ? Buffer.from(whole.toString('latin1').replaceAll(BOUNDARY, 'another-boundary'), 'latin1')
          : variant === 'no-disposition'
            ? Buffer.from(`--${BOUNDARY}\r\nX-Nothing: here\r\n\r\nvalue\r\n--${BOUNDARY}--\r\n`)
            : Buffer.from(`--${BOUNDARY}Content-Disposition: form-data; name="email"value--${BOUNDARY}--`);
    return post(`multipart-${variant}`, route, MULTIPART_TYPE, body);
  },
  'wrong-content-type': (rng, route) =>
    post(
      'wrong-content-type',
      route,
      { 'content-type': rng.pick(WRONG_CONTENT_TYPES) },
      JSON.stringify(VALID[route] ?? {}),
    ),
  oversized: (rng, route) => {
    const size = rng.pick([70_000, 120_000, 250_000]);
    const encoding = rng.pick(['json', 'form', 'multipart', 'chunked-json'] as const);
    const filler = 'x'.repeat(size);
    if (encoding === 'form') return post(`oversized-form-${size}`, route, FORM_TYPE, `email=${filler}`);
    if (encoding === 'multipart')
      return post(`oversized-multipart-${size}`, route, MULTIPART_TYPE, multipart([['email', filler]]));
    const headers =
      encoding === 'chunked-json' ? { ...JSON_TYPE, 'transfer-encoding': 'chunked' } : JSON_TYPE;
    return post(`oversized-${encoding}-${size}`, route, headers, JSON.stringify({ email: filler }));
  },
  'bad-url': (rng, route) => {
    const variants = [
      `${route}%ff`,
      `${route}%`,
      `${route}%c0%af`,
      `${route}%00`,
      `${route}?l=%ff`,
      `${route}?%`,
      `${route}?page=1&page=2&page[]=3`,
      route.replace('/web/', '/web//'),
      `${route}/..%2f..%2f..%2fetc%2fpasswd`,
      route.toUpperCase(),
      `${route};jsessionid=1`,
      `${route}\xff`,
      `${route}#fragment`,
      `${route}?${'a=1&'.repeat(2000)}`,
    ];
    return post('bad-url', rng.pick(variants), JSON_TYPE, JSON.stringify(VALID[route] ?? {}));
  },
  'odd-method': (rng, route) => {
    const method = rng.pick(ODD_METHODS);
    const withBody = method !== 'GET' && method !== 'TRACE' && rng.chance(0.5);
    return {
      kind: `method-${method}`,
      method,
      path: route,
      headers: withBody ? JSON_TYPE : {},
      body: withBody ? Buffer.from('{}') : undefined,
    };
  },
  'odd-headers': (rng, route) => {
    const header = rng.pick([
      ['authorization', 'Bearer'],
      ['authorization', `Bearer ${'A'.repeat(8000)}`],
      ['authorization', 'Basic Zm9vOmJhcg=='],
      ['authorization', 'Bearer \xe9\xff\xfe'],
      ['authorization', 'Bearer a b c'],
      ['authorization', 'Bearer %00'],
      ['accept-language', 'zh-TW;q=abc, *;q=-1, ;;;'],
      ['accept-language', 'x'.repeat(4000)],
      ['x-forwarded-for', 'not-an-ip'],
      ['x-forwarded-for', '999.999.1.1'],
      ['x-forwarded-for', '::ffff:1.2.3.4, , ,'],
      ['x-forwarded-for', `${'10.0.0.1, '.repeat(500)}10.0.0.2`],
    ] as const);
    return {
      kind: `header-${header[0]}`,
      method: 'POST',
      path: route,
      headers: { ...JSON_TYPE, [header[0]]: header[1] },
      body: Buffer.from(JSON.stringify(VALID[route] ?? {})),
    };
  },
};

/** Outside `/web/`: the sandbox checkout page and its Pay button take a token from the path. */
const SANDBOX_REFS = ['%00', 'a'.repeat(200), '%ff', '..%2f..', '%c0%af', "'", 'x%00y', '%e2%80%ae'];

/** Sent every run, whatever the seed: the undecodable URLs, NULs where they reach SQL, odd checkout tokens. */
function fixedCases(routes: string[]): Draft[] {
  const rng = seededRandom(1);
  const cases: Draft[] = [
    post('bad-url', '/web/order/list%ff', JSON_TYPE, '{}'),
    post('bad-url', '/web/%', JSON_TYPE, '{}'),
    { kind: 'bad-url', method: 'GET', path: '/%c0%af', headers: {} },
    post('bad-url', '/%c0%af', JSON_TYPE, '{}'),
  ];
  for (const [route, field] of [
    ['/web/login/register', 'invite_code'],
    ['/web/login/register', 'email'],
    ['/web/login/register', 'password'],
    ['/web/order/query', 'order_id'],
    ['/web/order/cancel', 'order_id'],
    ['/web/login/login', 'email'],
    ['/web/login/login', 'password'],
    ['/web/login/verify_email', 'email'],
    ['/web/login/forget', 'password'],
  ] as const) {
    if (routes.includes(route)) cases.push(withNul(rng, route, field));
  }
  for (const ref of SANDBOX_REFS) {
    cases.push({ kind: 'sandbox-ref', method: 'GET', path: `/pay/sandbox/${ref}`, headers: {} });
    cases.push(post('sandbox-ref', `/pay/sandbox/${ref}/pay`, FORM_TYPE, ''));
  }
  return cases;
}

/**
 * The fixed cases, then `count` generated ones: kinds in turn (so each is covered), a call and the
 * details drawn from the seed. About half are sent signed in.
 */
export function fuzzCases(seed: number, count: number, routes: string[]): FuzzCase[] {
  const rng = seededRandom(seed);
  const kinds = Object.keys(GENERATORS);
  const drafts = [...fixedCases(routes)];
  for (let i = 0; i < count; i += 1) {
    const kind = kinds[i % kinds.length] as string;
    drafts.push((GENERATORS[kind] as Generator)(rng, rng.pick(routes)));
  }
  return drafts.map((draft, id) => ({ ...draft, id, signedIn: rng.chance(0.5) }));
}

/** A case as text that can be pasted into a bug report (the body shown with escapes, cut at 300 bytes). */
export function describeCase(fuzzCase: FuzzCase): string {
  const body = fuzzCase.body
    ? `${JSON.stringify(fuzzCase.body.subarray(0, 300).toString('latin1'))}${fuzzCase.body.length > 300 ? ` … (${fuzzCase.body.length} bytes)` : ''}`
    : '(none)';
  const headers = Object.entries(fuzzCase.headers)
    .map(
      ([key, value]) =>
        `${key}: ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…(${value.length})` : value)}`,
    )
    .join('; ');
  return `#${fuzzCase.id} [${fuzzCase.kind}] ${fuzzCase.method} ${JSON.stringify(fuzzCase.path.length > 120 ? `${fuzzCase.path.slice(0, 120)}…` : fuzzCase.path)}${fuzzCase.signedIn ? ' (signed in)' : ''}\n    headers: ${headers || '(none)'}\n    body: ${body}`;
}
