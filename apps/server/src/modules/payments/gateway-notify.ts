import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CURRENCY } from '@skyway/shared/plans';
import type { Database } from '../../db/client.ts';
import type { GatewayRow } from '../../db/schema/index.ts';
import { findGateway } from '../gateways/repository.ts';
import type { LimitCounters } from '../limits/counters.ts';
import { type FulfilDeps, type FulfilOutcome, fulfilPayment } from '../orders/fulfilment.ts';
import { type NotifyRefusal, recordRefusedNotify } from '../sales/notices.ts';

/** Notifies one address may send in a minute: a gateway's bursts, with room, and no flood. */
export const NOTIFY_PER_MINUTE = 600;

/** A notify is a few hundred bytes of fields. */
const NOTIFY_BODY_LIMIT = 16 * 1024;

/** The notify's own name for the attention queue: its fields, sorted, hashed. */
const fingerprintOf = (fields: Record<string, unknown>) =>
  createHash('sha256')
    .update(JSON.stringify(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1))))
    .digest('hex');

/**
 * A refused notify in the attention queue (PRODUCT.md section 8), once per distinct notify, with the
 * fields `kept` (never its signature) and the amount in fen it claimed (0 when it claimed none).
 */
async function queueRefusedNotify(
  db: Database,
  notify: {
    provider: string;
    reason: NotifyRefusal;
    fields: Record<string, unknown>;
    kept: readonly string[];
    fen: number | null;
  },
  now: Date,
): Promise<void> {
  const kept = Object.fromEntries(
    notify.kept
      .filter((name) => notify.fields[name] !== undefined && notify.fields[name] !== null)
      .map((name) => [name, String(notify.fields[name]).slice(0, 200)]),
  );
  await recordRefusedNotify(
    db,
    {
      provider: notify.provider,
      reason: notify.reason,
      fingerprint: fingerprintOf(notify.fields),
      amount: notify.fen ?? 0,
      currency: CURRENCY,
      fields: kept,
    },
    now,
  );
}

/** A notify's fields from its query (GET) or its form body (POST), as text (Epay, Alipay). */
export function formFieldsOf(request: FastifyRequest): Record<string, string> {
  const source = (request.method === 'GET' ? request.query : request.body) ?? {};
  if (typeof source !== 'object') return {};
  return Object.fromEntries(
    Object.entries(source as Record<string, unknown>)
      .filter(([, value]) => typeof value === 'string')
      .map(([name, value]) => [name, value as string]),
  );
}

/** What a gateway's notify handler made of one notify. */
export interface NotifyResult {
  /** Whether the gateway is told it was taken (so it stops sending), or refused. */
  taken: boolean;
  outcome: FulfilOutcome | NotifyRefusal | 'unknown_gateway';
}

/** What a notify handler needs: crediting's, and the key that opens the gateways' sealed keys. */
export type NotifyDeps = FulfilDeps & { secretsKey: Buffer | undefined };

/** One kind's notify handler: a notify's fields for one of its gateways, read and carried out. */
export type NotifyHandler<F> = (
  deps: NotifyDeps,
  row: GatewayRow,
  fields: F,
  now: Date,
) => Promise<NotifyResult>;

/**
 * How a handler ends with one notify of a gateway's provider: `refuse` queues it (above) and answers
 * `taken` or not; `credit` hands its payment to fulfilPayment, which records the trade number under
 * its unique key in the crediting transaction and checks the amount in fen to the fen against the
 * order (a notify without a readable amount is malformed; one for no order of ours is queued).
 */
export function notifyOutcomes(
  deps: FulfilDeps,
  notify: { provider: string; fields: Record<string, unknown>; kept: readonly string[]; fen: number | null },
  now: Date,
) {
  const refuse = async (reason: NotifyRefusal, taken: boolean): Promise<NotifyResult> => {
    await queueRefusedNotify(deps.db, { ...notify, reason }, now);
    return { taken, outcome: reason };
  };
  const credit = async (payment: { orderId: string; paymentId: string }): Promise<NotifyResult> => {
    if (notify.fen === null) return refuse('malformed', true);
    const outcome = await fulfilPayment(
      deps,
      { provider: notify.provider, ...payment, amount: notify.fen, currency: CURRENCY },
      now,
    );
    if (outcome === 'unknown_order') return refuse('unknown_order', true);
    return { taken: true, outcome };
  };
  return { refuse, credit };
}

const NEEDS_OPERATOR = new Set(['amount_mismatch', 'already_paid']);

/**
 * A gateway's notify route, outside the calls (`/pay/`, so no signing, no session and no call
 * ceiling), with a per-address limit of its own. It answers the literal words the gateway expects.
 */
export function gatewayNotifyRoute<F>(
  app: FastifyInstance,
  deps: { db: Database; counters: LimitCounters },
  route: {
    /** The route's name for its kind, for the limit's counter and the log lines. */
    kind: string;
    /** The kind of gateway whose notifies it takes: any other gateway is `unknown_gateway`. */
    gatewayKind: GatewayRow['kind'];
    url: string;
    methods: readonly ('GET' | 'POST')[];
    answers: { taken: string; refused: string };
    fieldsOf(request: FastifyRequest): F;
    orderOf(fields: F): unknown;
    handle(row: GatewayRow, fields: F, now: Date): Promise<NotifyResult>;
  },
): void {
  const handler = async (request: FastifyRequest<{ Params: { gatewayId: string } }>) => {
    const limit = deps.counters.hitSoon(`${route.kind}-notify:${request.ip}`, 60);
    if (limit.count > NOTIFY_PER_MINUTE) return { status: 429, text: route.answers.refused };
    const { gatewayId } = request.params;
    if (!/^[0-9a-f-]{36}$/.test(gatewayId)) return { status: 404, text: route.answers.refused };
    const fields = route.fieldsOf(request);
    const row = await findGateway(deps.db, gatewayId);
    const result: NotifyResult =
      row?.kind === route.gatewayKind
        ? await route.handle(row, fields, new Date())
        : { taken: false, outcome: 'unknown_gateway' };
    const log = { gateway_id: gatewayId, order_id: route.orderOf(fields), outcome: result.outcome };
    if (result.outcome === 'credited' || result.outcome === 'duplicate') {
      request.log.info(log, `${route.kind} notify`);
    } else if (NEEDS_OPERATOR.has(result.outcome)) {
      request.log.warn(log, `${route.kind} payment needs the operator`);
    } else request.log.warn(log, `${route.kind} notify refused`);
    return result.taken
      ? { status: 200, text: route.answers.taken }
      : { status: 400, text: route.answers.refused };
  };
  for (const method of route.methods) {
    app.route<{ Params: { gatewayId: string } }>({
      method,
      url: route.url,
      bodyLimit: NOTIFY_BODY_LIMIT,
      handler: async (request, reply) => {
        const { status, text } = await handler(request);
        return reply.code(status).type('text/plain; charset=utf-8').send(text);
      },
    });
  }
}
