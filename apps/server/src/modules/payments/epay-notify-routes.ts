import type { FastifyInstance } from 'fastify';
import type { LimitCounters } from '../limits/counters.ts';
import { epayNotifyPath } from './epay.ts';
import { handleEpayNotify } from './epay-notify.ts';
import { formFieldsOf, gatewayNotifyRoute, type NotifyDeps } from './gateway-notify.ts';

/**
 * The Epay gateways' notify route (GET or POST form), outside the calls. It answers the literal
 * `success` the aggregators expect, or `fail`.
 */
export async function epayNotifyRoutes(
  app: FastifyInstance,
  options: NotifyDeps & { counters: LimitCounters },
): Promise<void> {
  gatewayNotifyRoute(app, options, {
    kind: 'epay',
    gatewayKind: 'epay',
    url: epayNotifyPath(':gatewayId'),
    methods: ['GET', 'POST'],
    answers: { taken: 'success', refused: 'fail' },
    fieldsOf: formFieldsOf,
    orderOf: (fields) => fields.out_trade_no,
    handle: (row, fields, now) => handleEpayNotify(options, row, fields, now),
  });
}
