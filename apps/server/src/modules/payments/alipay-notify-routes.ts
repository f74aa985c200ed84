import type { FastifyInstance } from 'fastify';
import type { LimitCounters } from '../limits/counters.ts';
import { alipayNotifyPath } from './alipay.ts';
import { handleAlipayNotify } from './alipay-notify.ts';
import { formFieldsOf, gatewayNotifyRoute, type NotifyDeps } from './gateway-notify.ts';

/**
 * The Alipay face-to-face gateways' notify route (POST form), outside the calls. It answers the
 * literal `success` Alipay expects, or `fail`.
 */
export async function alipayNotifyRoutes(
  app: FastifyInstance,
  options: NotifyDeps & { counters: LimitCounters },
): Promise<void> {
  gatewayNotifyRoute(app, options, {
    kind: 'alipay',
    gatewayKind: 'alipay_f2f',
    url: alipayNotifyPath(':gatewayId'),
    methods: ['POST'],
    answers: { taken: 'success', refused: 'fail' },
    fieldsOf: formFieldsOf,
    orderOf: (fields) => fields.out_trade_no,
    handle: (row, fields, now) => handleAlipayNotify(options, row, fields, now),
  });
}
