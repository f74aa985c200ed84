import type { SeededRandom } from './harness/random.ts';
import { HUGE_NUMBERS, INVALID_JSON, WRONG_CONTENT_TYPES, WRONG_VALUES } from './fuzz-cases.ts';

/** One operation of the back office's API, as its OpenAPI document describes it. */
export interface Operation {
  method: string;
  /** With `{param}` placeholders, relative to the API's prefix. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** The JSON body's properties and their JSON-schema types, for a POST or PATCH. */
  bodyFields: Record<string, string>;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string }[];
        requestBody?: {
          content?: Record<string, { schema?: { properties?: Record<string, { type?: string }> } }>;
        };
      }
    >
  >;
}

/** Every operation of the document, relative to `prefix`. */
export function operationsOf(document: OpenApiDocument, prefix: string): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path: path.replace(prefix, ''),
      pathParams: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      queryParams: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      bodyFields: Object.fromEntries(
        Object.entries(operation.requestBody?.content?.['application/json']?.schema?.properties ?? {}).map(
          ([name, schema]) => [name, schema.type ?? 'string'],
        ),
      ),
    })),
  );
}

export interface AdminFuzzCase {
  id: number;
  kind: string;
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Sent with the owner's session (and its CSRF token on a change). */
  signedIn: boolean;
  csrf: boolean;
}

const PATH_VALUES = [
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
  '%00',
  '..%2F..%2Fetc%2Fpasswd',
  'x'.repeat(300),
  '%E0%A4%A',
  "'%20or%201=1",
  '__proto__',
  'month',
  '%F0%9F%98%80',
];
const VALID_SAMPLE: Record<string, string> = {
  string: '"fuzz value"',
  integer: '1',
  number: '1',
  boolean: 'true',
};

const jsonOf = (fields: Record<string, string>) =>
  `{${Object.entries(fields)
    .map(([key, raw]) => `${JSON.stringify(key)}:${raw}`)
    .join(',')}}`;

/**
 * Malformed requests over the back office's operations, from a seed: poisoned path parameters,
 * query strings of the wrong types, bodies with one field of the wrong type or size, broken JSON,
 * wrong content types, and changes without their CSRF token or without a session.
 */
export function adminFuzzCases(rng: SeededRandom, operations: Operation[], count: number): AdminFuzzCase[] {
  const cases: AdminFuzzCase[] = [];
  const fill = (operation: Operation, poison?: string) =>
    operation.pathParams.reduce(
      (path, name) => path.replace(`{${name}}`, poison ?? rng.pick(PATH_VALUES)),
      operation.path,
    );
  const validBody = (operation: Operation) =>
    Object.fromEntries(
      Object.entries(operation.bodyFields).map(([name, type]) => [name, VALID_SAMPLE[type] ?? '"x"']),
    );
  const isChange = (operation: Operation) => operation.method !== 'GET';
  for (let id = 0; cases.length < count; id++) {
    const operation = operations[id % operations.length] as Operation;
    const base = {
      id,
      operation: `${operation.method} ${operation.path}`,
      method: operation.method,
      signedIn: true,
      csrf: true,
    };
    const kinds = [
      'path',
      ...(operation.queryParams.length ? ['query'] : []),
      ...(isChange(operation) ? ['field', 'json', 'content-type', 'no-csrf'] : []),
      'no-session',
    ];
    const kind = rng.pick(kinds);
    const json = { 'content-type': 'application/json' };
    const body = isChange(operation) ? jsonOf(validBody(operation)) : undefined;
    switch (kind) {
      case 'path':
        cases.push({ ...base, kind, path: fill(operation), headers: body ? json : {}, body });
        break;
      case 'query': {
        const name = rng.pick(operation.queryParams);
        const value = rng.pick([...WRONG_VALUES, ...HUGE_NUMBERS, '%', '%25%00', '2026-13-45T99:99:99Z']);
        const query = `${encodeURIComponent(name)}=${encodeURIComponent(value)}&${encodeURIComponent(name)}=again`;
        cases.push({ ...base, kind, path: `${fill(operation, PATH_VALUES[0])}?${query}`, headers: {} });
        break;
      }
      case 'field': {
        const fields = validBody(operation);
        const name = rng.pick([...Object.keys(fields), 'unknown_field', '__proto__']);
        fields[name] = rng.pick([...WRONG_VALUES, ...HUGE_NUMBERS]);
        cases.push({
          ...base,
          kind,
          path: fill(operation, PATH_VALUES[0]),
          headers: json,
          body: jsonOf(fields),
        });
        break;
      }
      case 'json':
        cases.push({
          ...base,
          kind,
          path: fill(operation, PATH_VALUES[0]),
          headers: json,
          body: rng.pick(INVALID_JSON),
        });
        break;
      case 'content-type':
        cases.push({
          ...base,
          kind,
          path: fill(operation, PATH_VALUES[0]),
          headers: { 'content-type': rng.pick(WRONG_CONTENT_TYPES) },
          body,
        });
        break;
      case 'no-csrf':
        cases.push({
          ...base,
          kind,
          csrf: false,
          path: fill(operation, PATH_VALUES[0]),
          headers: json,
          body,
        });
        break;
      default:
        cases.push({
          ...base,
          kind,
          signedIn: false,
          csrf: false,
          path: fill(operation),
          headers: body ? json : {},
          body,
        });
    }
  }
  return cases;
}
