import { CODES, type Envelope } from '@skyway/shared/envelope';
import type { SiteConf } from '@skyway/shared/site';
import { http, type HttpHandler, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

export type Payload = Record<string, unknown>;

/** What a call is answered with: an envelope, or a response of another kind (see noReply). */
export type Reply = Envelope | Response;

/** An envelope for every call, or a function of the call's payload, called for each call. */
export type Answer = Envelope | ((payload: Payload) => Reply | Promise<Reply>);

export interface SentRequest {
  path: string;
  url: string;
  headers: Headers;
  /** The JSON body as sent, with the `t`, `l` and `s` the api client adds. */
  body: Promise<Payload>;
}

/** The reply of a call that succeeded. */
export function ok(data: unknown = {}, msg = ''): Envelope {
  return { code: CODES.ok, msg, data };
}

/** The reply of a call the server refused; as the server does, `code` is the HTTP status too. */
export function refused(code: number, msg: string, data: unknown = {}): Envelope {
  return { code, msg, data };
}

/** No reply at all: the connection failed (offline, refused). */
export const noReply = (): Response => HttpResponse.error();

/** A reply that never comes. */
export const never = (): Promise<never> => new Promise(() => undefined);

/** The site configuration, which every page reads (its title, the footer). */
export const SITE_CONF: SiteConf = {
  site_name: 'Skyway',
  support_email: 'help@example.com',
  downloads: [],
  signing: false,
};

/** The payload a caller gave the api client: the body without what the client adds to every call. */
function payloadOf({ t: _time, l: _language, s: _signature, ...payload }: Payload): Payload {
  return payload;
}

const isEnvelope = (reply: Reply): reply is Envelope => 'code' in reply;

function handler(path: string, reply: Answer): HttpHandler {
  return http.post(path, async ({ request }) => {
    const body = (await request.json()) as Payload;
    const result = typeof reply === 'function' ? await reply(payloadOf(body)) : reply;
    return isEnvelope(result) ? HttpResponse.json(result, { status: result.code }) : result;
  });
}

/**
 * The network of every web test, started by setup.ts: a call that no test answered fails the test.
 * Only the site configuration is answered unless a test answers it otherwise.
 */
export const server = setupServer(handler('/web/site/conf', ok(SITE_CONF)));

const sent: SentRequest[] = [];

// Recorded as fetch() is called, answered or not, so that a test can tell at once what was sent.
server.events.on('request:start', ({ request }) => {
  sent.push({
    path: new URL(request.url).pathname,
    url: request.url,
    headers: request.headers,
    body: request.clone().json() as Promise<Payload>,
  });
});

/** Answers every POST to `path`, one of the `/web/...` calls, until the test ends or answers it anew. */
export function answer(path: string, reply: Answer): void {
  server.use(handler(path, reply));
}

export interface HeldAnswer {
  /** Whether a call has arrived and waits for its reply. */
  readonly arrived: boolean;
  send(reply: Reply): void;
}

/** Holds the calls to `path` until the test sends the reply: for what a page shows meanwhile. */
export function answerLater(path: string): HeldAnswer {
  let send: ((reply: Reply) => void) | undefined;
  answer(path, () => new Promise<Reply>((resolve) => (send = resolve)));
  return {
    get arrived() {
      return send !== undefined;
    },
    send(reply) {
      if (!send) throw new Error(`no call to ${path} has arrived`);
      send(reply);
    },
  };
}

/** The requests made to `path` in this test so far, in order. */
export function requestsTo(path: string): SentRequest[] {
  return sent.filter((request) => request.path === path);
}

/** The payloads sent to `path` in this test so far, in order. */
export async function sentTo(path: string): Promise<Payload[]> {
  const bodies = await Promise.all(requestsTo(path).map((request) => request.body));
  return bodies.map(payloadOf);
}

/** Drops the test's answers and its record of calls. */
export function resetNetwork(): void {
  server.resetHandlers();
  sent.length = 0;
}
