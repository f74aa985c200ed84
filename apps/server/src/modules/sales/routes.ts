import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uuidParams } from '@skyway/shared/schemas/admin/common';
import {
  adminPaymentSchema,
  ATTENTION_MAIL_DAYS,
  ATTENTION_SHOWN,
  attentionSchema,
  orderListQuery,
  orderListSchema,
  paymentListQuery,
  paymentListSchema,
  providerNoticeSchema,
  refundRequest,
  refundSchema,
  resolveDiscrepancyRequest,
  resolveNoticeRequest,
  settleRequest,
  trafficDiscrepancySchema,
} from '@skyway/shared/schemas/admin/sales';
import type { Database } from '../../db/client.ts';
import { ok, replies } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { gatewayNamesOf } from '../gateways/repository.ts';
import { signedInStaff } from '../staff/signed-in-staff.ts';
import type { GatewayProviders, PaymentProvider } from '../orders/provider.ts';
import {
  presentDiscrepancy,
  presentFailedMail,
  presentNotice,
  presentOrder,
  presentPayment,
  presentRefund,
} from './present.ts';
import { recordRefundOutside, refundPayment, resolveNotice, settlePayment } from './refunds.ts';
import { resolveDiscrepancy } from './discrepancies.ts';
import {
  attentionCounts,
  attentionItems,
  findPaymentWithBuyer,
  latestRefunds,
  listOrders,
  listPayments,
  type PaymentWithBuyer,
} from './repository.ts';

const pageAt = (page: number, size: number) => ({ limit: size, offset: (page - 1) * size });

/** Orders, payments and refunds, and the attention queue of what the operator must deal with. */
export async function salesRoutes(
  app: FastifyInstance,
  options: { db: Database; provider: PaymentProvider; gateways: GatewayProviders },
): Promise<void> {
  const { db } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['orders and payments'];

  const withRefunds = async (rows: PaymentWithBuyer[]) => {
    const [refunds, names] = await Promise.all([
      latestRefunds(
        db,
        rows.map((row) => row.payment.id),
      ),
      gatewayNamesOf(
        db,
        rows.map((row) => row.payment.provider),
      ),
    ]);
    return rows.map((row) => presentPayment(row, refunds.get(row.payment.id), names));
  };

  routes.get(
    '/orders',
    {
      config: { staff: 'orders.view' },
      schema: { tags, querystring: orderListQuery, response: replies(orderListSchema) },
    },
    async (request) => {
      const { page, size, user_id, ...filter } = request.query;
      const found = await listOrders(db, { ...filter, userId: user_id }, pageAt(page, size));
      const names = await gatewayNamesOf(
        db,
        found.rows.map((row) => row.order.provider),
      );
      return ok(request, {
        total: found.total,
        total_capped: found.capped,
        page,
        size,
        items: found.rows.map((row) => presentOrder(row, names)),
      });
    },
  );

  routes.get(
    '/payments',
    {
      config: { staff: 'orders.view' },
      schema: { tags, querystring: paymentListQuery, response: replies(paymentListSchema) },
    },
    async (request) => {
      const { page, size, user_id, ...filter } = request.query;
      const found = await listPayments(db, { ...filter, userId: user_id }, pageAt(page, size));
      return ok(request, {
        total: found.total,
        total_capped: found.capped,
        page,
        size,
        items: await withRefunds(found.rows),
      });
    },
  );

  routes.post(
    '/payments/:id/refund',
    {
      config: { staff: 'payments.refund' },
      schema: { tags, params: uuidParams, body: refundRequest, response: replies(refundSchema) },
    },
    async (request) => {
      const refund = await refundPayment(options, signedInStaff(request).actor, {
        paymentId: request.params.id,
        ...request.body,
        now: new Date(),
      });
      return ok(request, presentRefund(refund));
    },
  );

  routes.post(
    '/payments/:id/refund-outside',
    {
      config: { staff: 'payments.refund' },
      schema: { tags, params: uuidParams, body: refundRequest, response: replies(refundSchema) },
    },
    async (request) => {
      const refund = await recordRefundOutside(options, signedInStaff(request).actor, {
        paymentId: request.params.id,
        ...request.body,
        now: new Date(),
      });
      return ok(request, presentRefund(refund));
    },
  );

  routes.post(
    '/payments/:id/settle',
    {
      config: { staff: 'attention.resolve' },
      schema: { tags, params: uuidParams, body: settleRequest, response: replies(adminPaymentSchema) },
    },
    async (request) => {
      await settlePayment(db, signedInStaff(request).actor, {
        paymentId: request.params.id,
        reason: request.body.reason,
        now: new Date(),
      });
      const row = await findPaymentWithBuyer(db, request.params.id);
      if (!row) throw new AppError(404, 'not_found');
      const [payment] = await withRefunds([row]);
      return ok(request, payment as NonNullable<typeof payment>);
    },
  );

  routes.get(
    '/attention',
    { config: { staff: 'orders.view' }, schema: { tags, response: replies(attentionSchema) } },
    async (request) => {
      const now = new Date();
      const [items, counts] = await Promise.all([
        attentionItems(db, now, { limit: ATTENTION_SHOWN, mailDays: ATTENTION_MAIL_DAYS }),
        attentionCounts(db, now, ATTENTION_MAIL_DAYS),
      ]);
      return ok(request, {
        payments: await withRefunds(items.unsettledPayments),
        refunds: await withRefunds(items.refundPayments),
        notices: items.notices.map(presentNotice),
        mail: items.mail.map(presentFailedMail),
        traffic: items.traffic.map(presentDiscrepancy),
        counts,
      });
    },
  );

  routes.post(
    '/notices/:id/resolve',
    {
      config: { staff: 'attention.resolve' },
      schema: {
        tags,
        params: uuidParams,
        body: resolveNoticeRequest,
        response: replies(providerNoticeSchema),
      },
    },
    async (request) => {
      const notice = await resolveNotice(db, signedInStaff(request).actor, {
        id: request.params.id,
        ...request.body,
        now: new Date(),
      });
      return ok(request, presentNotice({ notice, userId: null, email: null }));
    },
  );

  routes.post(
    '/traffic-discrepancies/:id/resolve',
    {
      config: { staff: 'attention.resolve' },
      schema: {
        tags,
        params: uuidParams,
        body: resolveDiscrepancyRequest,
        response: replies(trafficDiscrepancySchema),
      },
    },
    async (request) =>
      ok(
        request,
        presentDiscrepancy(
          await resolveDiscrepancy(db, signedInStaff(request).actor, {
            id: request.params.id,
            reason: request.body.reason,
            now: new Date(),
          }),
        ),
      ),
  );
}
