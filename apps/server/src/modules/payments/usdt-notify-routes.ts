import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LimitCounters } from '../limits/counters.ts';
import { usdtNotifyPath } from './epusdt.ts';
import { gatewayNotifyRoute, type NotifyDeps } from './gateway-notify.ts';
import { handleUsdtNotify, type UsdtCallback } from './usdt-notify.ts';

/** The callback's JSON fields that are text or numbers. */
function fieldsOf(request: FastifyRequest): UsdtCallback {
  const body: unknown = request.body;
  if (typeof body !== 'object' || body === null) return {};
  return Object.fromEntries(
    Object.entries(body).filter(([, value]) => typeof value === 'string' || typeof value === 'number'),
  ) as UsdtCallback;
}

/**
 * The USDT gateways' callback route (POST JSON), outside the calls. It answers the literal `ok`
 * EPUSDT expects, or `fail`.
 */
export async function usdtNotifyRoutes(
  app: FastifyInstance,
  options: NotifyDeps & { counters: LimitCounters },
): Promise<void> {
  gatewayNotifyRoute(app, options, {
    kind: 'usdt',
    gatewayKind: 'epusdt',
    url: usdtNotifyPath(':gatewayId'),
    methods: ['POST'],
    answers: { taken: 'ok', refused: 'fail' },
    fieldsOf,
    orderOf: (fields) => fields.order_id,
    handle: (row, fields, now) => handleUsdtNotify(options, row, fields, now),
  });
}
