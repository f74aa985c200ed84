import { CODES, type Envelope } from '@skyway/shared/envelope';
import { http, type HttpHandler, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { API } from '../lib/api-client.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** An envelope for every call, or a function of the call's URL and JSON body, called for each call. */
export type Answer = Envelope | ((call: { url: URL; body: unknown }) => Envelope | Promise<Envelope>);

export interface SentRequest {
  method: string;
  /** The path under the back office's API, e.g. `/users`. */
  path: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

/** The reply of a call that succeeded. */
export function ok(data: unknown = {}, msg = ''): Envelope {
  return { code: CODES.ok, msg, data };
}

/** The reply of a call the server refused; as the server does, `code` is the HTTP status too. */
export function refused(code: number, msg: string, data: unknown = {}): Envelope {
  return { code, msg, data };
}

const readBody = async (request: Request): Promise<unknown> => {
  const text = await request.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
};

function handler(method: Method, path: string, reply: Answer): HttpHandler {
  const route = http[method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'];
  return route(`${API}${path}`, async ({ request }) => {
    const envelope =
      typeof reply === 'function'
        ? await reply({ url: new URL(request.url), body: await readBody(request) })
        : reply;
    return HttpResponse.json(envelope, { status: envelope.code });
  });
}

/** The network of every back-office test, started by setup.ts: a call no test answered fails it. */
export const server = setupServer();

const sent: Promise<SentRequest>[] = [];

// Recorded as fetch() is called, answered or not, so that a test can tell what was sent.
server.events.on('request:start', ({ request }) => {
  const url = new URL(request.url);
  sent.push(
    readBody(request.clone()).then((body) => ({
      method: request.method,
      path: url.pathname.slice(API.length),
      url,
      headers: request.headers,
      body,
    })),
  );
});

/** Answers every `method` call to `path` (under the API, `:id` style params allowed) until the test ends. */
export function answer(method: Method, path: string, reply: Answer): void {
  server.use(handler(method, path, reply));
}

/** The requests made with `method` to `path` in this test so far, in order. */
export async function requestsTo(method: Method, path: string): Promise<SentRequest[]> {
  const all = await Promise.all(sent);
  return all.filter((request) => request.method === method && request.path === path);
}

/** Drops the test's answers and its record of calls. */
export function resetNetwork(): void {
  server.resetHandlers();
  sent.length = 0;
}
