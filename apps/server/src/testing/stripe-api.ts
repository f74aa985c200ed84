import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { listenOnLoopback, requestText } from './loopback.ts';

/** A form-encoded body as Stripe reads it: `a[b][0][c]=1` is `{ a: { b: [{ c: '1' }] } }`. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: FormObject;
}

/** The fields of a `checkout.session` object that this site reads or sends, in Stripe's wire format. */
export interface WireSession {
  id: string;
  object: 'checkout.session';
  [key: string]: unknown;
}

/** The fields of a `refund` object, in Stripe's wire format. */
export interface WireRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  status: string;
  [key: string]: unknown;
}

interface PaidIntent {
  amount: number;
  currency: string;
  charge: string;
  refunded: number;
}

export interface StripeApi {
  /** `http://127.0.0.1:<port>`, for STRIPE_API_URL. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** A copy of a stored session. */
  session(id: string): WireSession;
  /** What Stripe reports once the buyer has paid: `payment_status: 'paid'` with a PaymentIntent. */
  markPaid(id: string, paymentIntent?: string): WireSession;
  /** A PaymentIntent that succeeded for this amount, as a payment outside a stored session makes one. */
  paidIntent(amount: number, currency: string): string;
  /** The refunds made, oldest first, as Stripe's `refund` objects. */
  refunds(): WireRefund[];
  /** Stops answering (connections refused) until reopen(). */
  close(): Promise<void>;
  reopen(): Promise<void>;
}

export const randomId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function isIndex(segment: string): boolean {
  return /^\d+$/.test(segment);
}

/** Parses Stripe's form encoding (the client's `stringifyRequestData`) into nested objects and arrays. */
export function parseStripeForm(text: string): FormObject {
  const root: FormObject = {};
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    const key = decode(at < 0 ? pair : pair.slice(0, at));
    const value = decode(at < 0 ? '' : pair.slice(at + 1));
    const path = key.replace(/\]/g, '').split('[');
    let node: FormObject | FormValue[] = root;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      const container = node as Record<string, FormValue>;
      if (last) {
        container[segment] = value;
        return;
      }
      const nextIsIndex = isIndex(path[i + 1] ?? '');
      container[segment] ??= nextIsIndex ? [] : {};
      node = container[segment] as FormObject | FormValue[];
    });
  }
  return root;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': randomId('req'),
  });
  response.end(text);
}

const stripeError = (message: string, code?: string, param?: string) => ({
  error: { type: 'invalid_request_error', message, ...(code ? { code } : {}), ...(param ? { param } : {}) },
});

const text = (value: FormValue | undefined): string | null => (typeof value === 'string' ? value : null);
const list = (value: FormValue | undefined): FormValue[] => (Array.isArray(value) ? value : []);
const record = (value: FormValue | undefined): FormObject =>
  value && typeof value === 'object' && !Array.isArray(value) ? value : {};

/** The session Stripe answers for a create call: amounts from the line items, unpaid and open. */
function newSession(body: FormObject, created: number): WireSession {
  const id = randomId('cs_test');
  const items = list(body.line_items).map(record);
  const total = items.reduce(
    (sum, item) => sum + Number(text(record(item.price_data).unit_amount)) * Number(text(item.quantity) ?? 1),
    0,
  );
  const currency = text(record(items[0]?.price_data).currency);
  return {
    id,
    object: 'checkout.session',
    amount_subtotal: total,
    amount_total: total,
    cancel_url: text(body.cancel_url),
    client_reference_id: text(body.client_reference_id),
    created,
    currency,
    customer: null,
    customer_email: text(body.customer_email),
    expires_at: Number(text(body.expires_at)),
    livemode: false,
    locale: text(body.locale),
    metadata: record(body.metadata),
    mode: text(body.mode) ?? 'payment',
    payment_intent: null,
    allowed_payment_method_types: list(body.allowed_payment_method_types),
    payment_method_types: list(body.allowed_payment_method_types),
    payment_status: 'unpaid',
    status: 'open',
    success_url: text(body.success_url),
    url: `https://checkout.stripe.com/c/pay/${id}#test`,
  };
}

/**
 * A local stand-in for the Stripe API endpoints this site calls, answering in Stripe's wire format:
 * `POST /v1/checkout/sessions` (form-encoded, Bearer key, Idempotency-Key honoured like Stripe does),
 * `GET /v1/checkout/sessions/:id` and `POST /v1/checkout/sessions/:id/expire` (an open session
 * becomes `expired`; any other is refused with 400, as Stripe does), and `POST /v1/refunds` (of a
 * paid PaymentIntent, Idempotency-Key honoured; more than was paid is refused with
 * `charge_already_refunded` or `amount_too_large`, as Stripe does).
 */
export async function startStripeApi(options: { secretKey: string }): Promise<StripeApi> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, WireSession>();
  const byIdempotencyKey = new Map<string, string>();
  const intents = new Map<string, PaidIntent>();
  const refunds = new Map<string, WireRefund>();
  const refundByKey = new Map<string, string>();

  /** POST /v1/refunds: the answer Stripe gives, and the refund it makes. */
  function refund(body: FormObject, key: string | undefined): { status: number; body: unknown } {
    const earlier = key ? refunds.get(refundByKey.get(key) ?? '') : undefined;
    if (earlier) return { status: 200, body: earlier };
    const intentId = text(body.payment_intent) ?? '';
    const intent = intents.get(intentId);
    if (!intent) {
      return {
        status: 404,
        body: stripeError(`No such payment_intent: '${intentId}'`, 'resource_missing', 'payment_intent'),
      };
    }
    const amount = Number(text(body.amount) ?? intent.amount - intent.refunded);
    if (intent.refunded >= intent.amount) {
      return {
        status: 400,
        body: stripeError(`Charge ${intent.charge} has already been refunded.`, 'charge_already_refunded'),
      };
    }
    if (amount > intent.amount - intent.refunded) {
      return {
        status: 400,
        body: stripeError(
          `Refund amount (${amount}) is greater than unrefunded amount on charge (${intent.amount - intent.refunded})`,
          'amount_too_large',
          'amount',
        ),
      };
    }
    intent.refunded += amount;
    const made: WireRefund = {
      id: randomId('re'),
      object: 'refund',
      amount,
      balance_transaction: randomId('txn'),
      charge: intent.charge,
      created: Math.floor(Date.now() / 1000),
      currency: intent.currency,
      metadata: record(body.metadata),
      payment_intent: intentId,
      reason: text(body.reason),
      status: 'succeeded',
    };
    refunds.set(made.id, made);
    if (key) refundByKey.set(key, made.id);
    return { status: 200, body: made };
  }

  const server = createServer((request, response) => {
    void (async () => {
      const bodyText = await requestText(request);
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const body = parseStripeForm(request.method === 'GET' ? url.search.slice(1) : bodyText);
      requests.push({ method: request.method ?? '', path: url.pathname, headers: request.headers, body });

      if (request.headers.authorization !== `Bearer ${options.secretKey}`) {
        return send(response, 401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
        });
      }
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        // Removed from this call in API version 2026-09-30.endive, which the client pins.
        if ('payment_method_types' in body) {
          return send(
            response,
            400,
            stripeError(
              'Received unknown parameter: payment_method_types',
              'parameter_unknown',
              'payment_method_types',
            ),
          );
        }
        const receivedAt = Math.floor(Date.now() / 1000);
        const expiresAt = Number(text(body.expires_at) ?? receivedAt + 24 * 60 * 60);
        if (!(expiresAt >= receivedAt + 30 * 60 && expiresAt <= receivedAt + 24 * 60 * 60)) {
          return send(
            response,
            400,
            stripeError(
              'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
              'parameter_invalid_integer',
              'expires_at',
            ),
          );
        }
        const key = request.headers['idempotency-key'];
        const earlier = typeof key === 'string' ? byIdempotencyKey.get(key) : undefined;
        const existing = earlier ? sessions.get(earlier) : undefined;
        if (existing) return send(response, 200, existing);
        const session = newSession(body, receivedAt);
        sessions.set(session.id, session);
        if (typeof key === 'string') byIdempotencyKey.set(key, session.id);
        return send(response, 200, session);
      }
      if (request.method === 'POST' && url.pathname === '/v1/refunds') {
        const key = request.headers['idempotency-key'];
        const answer = refund(body, typeof key === 'string' ? key : undefined);
        return send(response, answer.status, answer.body);
      }
      const match = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(url.pathname);
      const session = match?.[1] ? sessions.get(decodeURIComponent(match[1])) : undefined;
      if (match?.[1] && !session) {
        return send(
          response,
          404,
          stripeError(`No such checkout.session: '${match[1]}'`, 'resource_missing', 'session'),
        );
      }
      if (request.method === 'GET' && session && !match?.[2]) return send(response, 200, session);
      if (request.method === 'POST' && session && match?.[2]) {
        if (session.status !== 'open') {
          return send(
            response,
            400,
            stripeError(
              `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${String(session.status)}\`.`,
            ),
          );
        }
        Object.assign(session, { status: 'expired', url: null });
        return send(response, 200, session);
      }
      return send(
        response,
        404,
        stripeError(`Unrecognized request URL (${request.method}: ${url.pathname}).`, 'not_found'),
      );
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });

  const listen = (port: number) => listenOnLoopback(server, port);
  await listen(0);
  const { port } = server.address() as AddressInfo;

  const stored = (id: string): WireSession => {
    const session = sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    return session;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    session: (id) => structuredClone(stored(id)),
    markPaid(id, paymentIntent = randomId('pi_test')) {
      const paid = stored(id);
      intents.set(paymentIntent, {
        amount: Number(paid.amount_total),
        currency: String(paid.currency),
        charge: randomId('ch_test'),
        refunded: 0,
      });
      Object.assign(paid, {
        payment_status: 'paid',
        status: 'complete',
        payment_intent: paymentIntent,
      });
      return structuredClone(stored(id));
    },
    paidIntent(amount, currency) {
      const id = randomId('pi_test');
      intents.set(id, { amount, currency: currency.toLowerCase(), charge: randomId('ch_test'), refunded: 0 });
      return id;
    },
    refunds: () => [...refunds.values()].map((made) => structuredClone(made)),
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        // The Stripe client keeps connections alive: cut them, so the next call is refused.
        server.closeAllConnections();
      }),
    reopen: () => (server.listening ? Promise.resolve() : listen(port)),
  };
}

/** An event as Stripe delivers it to a webhook endpoint, around one of its objects (a Checkout Session, a charge, a dispute). */
export function stripeEvent(
  type: string,
  object: { id: string; object: string; [key: string]: unknown },
  id = randomId('evt_test'),
): string {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
}

/** The `Stripe-Signature` header Stripe would send with this exact payload. */
export function stripeSignature(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
}
