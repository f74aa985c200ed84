// The real server for the browser journeys of the site and of the back office (both Playwright
// configs start it): both built apps on a fresh in-memory database, its mail caught on 127.0.0.1, and
// App Store notifications trusted from a test certificate chain. The journeys make their own accounts
// through the site's calls (apps/web/e2e/support.ts); the controls below stand in for what no call
// gives a journey: a mailbox, Apple's signing key, the operator's settings and the break-glass
// command line. An Epay gateway served by the Epay stand-in takes Alipay and WeChat Pay beside the
// sandbox, so that the journeys can pay through a gateway as a buyer does.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { isSettingKey, resetSetting, writeSetting } from '../modules/settings/repository.ts';
import { and, eq } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';
import { deviceSlots, inbounds, nodes, orders, users } from '../db/schema/index.ts';
import { COMMAND_LINE } from '../modules/audit/repository.ts';
import { createNotice } from '../modules/notices/service.ts';
import { createBatch as createRedeemBatch } from '../modules/redeem-codes/service.ts';
import { fulfilPayment } from '../modules/orders/fulfilment.ts';
import { liveWindowMs } from '../modules/presence/rules.ts';
import { receiveSightings } from '../modules/presence/service.ts';
import { inviteOwner } from '../modules/staff/service.ts';
import { createStaff } from '../modules/staff/repository.ts';
import { staffReply } from '../modules/tickets/service.ts';
import { staffTicketReplyRequest } from '@skyway/shared/schemas/admin/tickets';
import { testMailer } from './test-mailer.ts';
import { makeTestChain } from './apple-chain.ts';
import { signedInitialBuy } from './apple-notifications.ts';
import { type CaughtMail, codeIn, hasCode, startSmtpCatcher } from './smtp-catcher.ts';
import { startEpayServer } from './epay-server.ts';
import { requestText } from './loopback.ts';
import { insertCoupon } from '../modules/coupons/repository.ts';
import { insertGateway } from '../modules/gateways/repository.ts';
import { sealKeys } from '../modules/gateways/secrets.ts';
import { noticeCreateRequest } from '@skyway/shared/schemas/admin/notices';
import { redeemBatchCreateRequest } from '@skyway/shared/schemas/admin/redeem-codes';
import { controlPort, E2E_APP_STORE, E2E_COUPON, E2E_GATEWAY, E2E_PORT } from './journey-fixtures.ts';

const mail = await startSmtpCatcher();
const epay = await startEpayServer();
const appleChain = makeTestChain();
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: String(E2E_PORT),
  SIGNATURE_SECRET: process.env.E2E_SIGNATURE_SECRET ?? '',
  SMTP_URL: mail.url,
  SUBSCRIPTION_KEY: 'e2e-subscription-key-0123456789abcdef',
  // Each account a journey makes asks for its code from an address of its own, as customers do
  // (support.ts): one address may ask for 30 codes a day, fewer than a run makes accounts.
  TRUST_PROXY: '127.0.0.1',
  APPLE_BUNDLE_ID: E2E_APP_STORE.bundleId,
  APPLE_ENVIRONMENT: 'Sandbox',
  APPLE_ROOT_CERTS: appleChain.rootPath,
  APPLE_PRODUCTS: `${E2E_APP_STORE.productId}=month:${E2E_APP_STORE.connections}`,
  APPLE_ONLINE_CHECKS: 'false',
  SECRETS_KEY: randomBytes(32).toString('hex'),
  // No journey uses the bot or staff alerts: their worker and job would only share the embedded
  // database with the pages under test.
  TELEGRAM_WORKER: 'off',
  ALERTS_EVERY_SECONDS: '0',
});
const database = await openDatabase({ dataDir: 'memory://' });
const app = await buildApp({ config, database });
// A reply written through the control port is mailed to the same catcher as the site's own mail.
const ticketDeps = {
  db: database.db,
  mailer: testMailer(database.db, { smtpUrl: mail.url }),
  siteOrigin: `http://127.0.0.1:${E2E_PORT}`,
};

const gatewayId = randomUUID();
const secretsKey = config.payments.secretsKey;
if (!secretsKey) throw new Error('the journey server sets SECRETS_KEY');
await insertGateway(database.db, {
  id: gatewayId,
  kind: 'epay',
  names: E2E_GATEWAY.names,
  methods: ['alipay', 'wxpay'],
  position: 0,
  feeBps: E2E_GATEWAY.feeBps,
  enabled: true,
  settings: { url: epay.url, pid: epay.pid },
  sealedKeys: sealKeys(secretsKey, gatewayId, { key: epay.key }),
  createdAt: new Date(),
  updatedAt: new Date(),
});

await insertCoupon(database.db, { code: E2E_COUPON.code, kind: 'percent', value: E2E_COUPON.percent });

const handedOut = new Set<CaughtMail>();
const SETUP_LINK = /https?:\/\/\S+\/admin\/setup\/[\w-]+/;

/** The code of the next code mail to an address, once each: as its owner reads it in their mailbox. */
async function takeCode(to: string): Promise<string> {
  const caught = await mail.waitFor(
    (message) => message.to === to && hasCode(message) && !handedOut.has(message),
  );
  handedOut.add(caught);
  return codeIn(caught);
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await requestText(request);
  return body ? (JSON.parse(body) as Record<string, unknown>) : {};
}

// The journeys' controls, on a port of their own and never part of the app.
const control = createServer((request, reply) => {
  // A connection per call: a journey's next call on a kept connection could meet the server closing
  // it after its 5 s of idleness, and fail with ECONNRESET.
  reply.setHeader('connection', 'close');
  void (async () => {
    const body = await readJson(request);
    if (request.url === '/code' && typeof body.to === 'string') {
      reply.end(JSON.stringify({ code: await takeCode(body.to) }));
    } else if (
      request.url === '/app-store/initial-buy' &&
      typeof body.app_account_token === 'string' &&
      typeof body.expires === 'number'
    ) {
      // What Apple sends when the account's first purchase in the app goes through; the journey
      // delivers it to the notify route itself.
      const signedPayload = signedInitialBuy(appleChain, {
        bundleId: E2E_APP_STORE.bundleId,
        productId: E2E_APP_STORE.productId,
        appAccountToken: body.app_account_token,
        purchased: Math.floor(Date.now() / 1000),
        expires: body.expires,
      });
      reply.end(JSON.stringify({ signedPayload }));
    } else if (request.url === '/setting' && typeof body.key === 'string' && isSettingKey(body.key)) {
      // The operator's settings as `npm run settings` writes them (the same table the server reads).
      if (typeof body.value === 'string') await writeSetting(database.db, body.key, body.value);
      else await resetSetting(database.db, body.key);
      reply.end('{}');
    } else if (request.url === '/staff/owner-link' && typeof body.email === 'string') {
      // What `npm run admin -- invite-owner EMAIL` prints.
      const origin = `http://127.0.0.1:${E2E_PORT}`;
      reply.end(JSON.stringify({ link: await inviteOwner(database.db, body.email, origin, new Date()) }));
    } else if (request.url === '/payments/charged-twice' && typeof body.order_id === 'string') {
      // The provider reporting two charges for one order: the first pays it, the second is money the
      // operator has to give back (`already_paid`).
      const orderId = body.order_id;
      const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
      if (!order) throw new Error(`no order ${orderId}`);
      const outcomes = [];
      for (const charge of ['first', 'second']) {
        const notice = { provider: 'sandbox', orderId, amount: order.amount, currency: order.currency };
        outcomes.push(
          await fulfilPayment(
            { db: database.db, confirmations: app.paymentConfirmations },
            { ...notice, paymentId: `${charge}-${orderId}` },
            new Date(),
          ),
        );
      }
      reply.end(JSON.stringify({ outcomes }));
    } else if (request.url === '/epay/pay' && typeof body.order_id === 'string') {
      // The buyer pays at the aggregator: a QR code scanned opens the order there first, as the
      // phone's browser would; then the aggregator delivers its notify to the order's notify_url.
      const orderId = body.order_id;
      if (!epay.orders.has(orderId)) {
        const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
        if (!order?.checkoutUrl) throw new Error(`no checkout for order ${orderId}`);
        await fetch(order.checkoutUrl);
      }
      const fields = epay.pay(orderId);
      const notified = await fetch(epay.orders.get(orderId)?.notify_url ?? '', {
        method: 'POST',
        body: new URLSearchParams(fields),
      });
      reply.end(JSON.stringify({ answer: await notified.text() }));
    } else if (request.url === '/node') {
      // A node serving VLESS and Trojan, as the operator registers one in the back office (whose own
      // journey does that through its screens): the customers' subscriptions then list servers.
      const [node] = await database.db
        .insert(nodes)
        .values({ name: `E2E ${randomUUID().slice(0, 8)}`, region: 'JP', host: 'jp.e2e.example' })
        .returning();
      if (!node) throw new Error('no node');
      await database.db.insert(inbounds).values([
        {
          nodeId: node.id,
          protocol: 'vless',
          port: 443,
          transport: 'tcp',
          security: 'tls',
          serverName: 'jp.e2e.example',
        },
        {
          nodeId: node.id,
          protocol: 'trojan',
          port: 8443,
          transport: 'tcp',
          security: 'tls',
          serverName: 'jp.e2e.example',
        },
      ]);
      reply.end(JSON.stringify({ name: node.name }));
    } else if (request.url === '/devices/second-device' && typeof body.email === 'string') {
      // What the nodes report when the customer's first slot is used from Japan and a second device
      // joins from the US, with no grace: the second is refused (the node side has its own journey).
      const [slot] = await database.db
        .select({ id: deviceSlots.id })
        .from(deviceSlots)
        .innerJoin(users, eq(users.id, deviceSlots.userId))
        .where(and(eq(users.email, body.email), eq(deviceSlots.position, 1)));
      if (!slot) throw new Error(`no slot of ${body.email}`);
      const policy = { graceMs: 0, liveMs: liveWindowMs(config.nodeOnlineIntervalSeconds) };
      await receiveSightings(database.db, [{ id: slot.id, ips: ['133.1.1.1'] }], new Date(), policy);
      await receiveSightings(
        database.db,
        [{ id: slot.id, ips: ['133.1.1.1', '8.8.8.8'] }],
        new Date(),
        policy,
      );
      reply.end('{}');
    } else if (request.url === '/notice') {
      // A notice as staff publish it in the back office (whose own journey writes one through its
      // screens): the body is the back office's request, checked by the same schema.
      const input = noticeCreateRequest.parse(body);
      const notice = await createNotice(database.db, COMMAND_LINE, input, new Date());
      reply.end(JSON.stringify({ id: notice.id }));
    } else if (request.url === '/redeem/batch') {
      // A batch of redeem codes as staff generate it in the back office (whose screen the back
      // office's tests drive): the body is its request, checked by the same schema; the reply
      // carries the codes, as the CSV does.
      const input = redeemBatchCreateRequest.parse(body);
      const { batch, csv } = await createRedeemBatch(database.db, COMMAND_LINE, input, new Date());
      reply.end(JSON.stringify({ id: batch.id, codes: csv.trimEnd().split('\r\n').slice(1) }));
    } else if (request.url === '/tickets/staff-reply' && typeof body.ticket_id === 'string') {
      // A member of support answering a ticket in the back office (whose own journey answers from
      // the queue's screen): the customer's journey reads the reply, and the mail goes out as it would.
      const member = await createStaff(database.db, {
        email: `support-${randomUUID()}@example.com`,
        role: 'support',
        language: 'zh',
        invitedBy: null,
      });
      const actor = { staffId: member.id, email: member.email, role: member.role, ip: null };
      const input = staffTicketReplyRequest.parse(body);
      await staffReply(ticketDeps, actor, body.ticket_id, input, new Date());
      reply.end(JSON.stringify({ ok: true }));
    } else if (request.url === '/staff/mailed-link' && typeof body.to === 'string') {
      // The set-up link in the invitation a member of staff finds in their mailbox.
      const to = body.to;
      const caught = await mail.waitFor((message) => message.to === to && SETUP_LINK.test(message.text));
      reply.end(JSON.stringify({ link: SETUP_LINK.exec(caught.text)?.[0] }));
    } else {
      reply.statusCode = 404;
      reply.end();
    }
  })().catch((error: unknown) => {
    reply.statusCode = 500;
    reply.end(String(error));
  });
});

const stop = async () => {
  control.close();
  await app.close();
  await ticketDeps.mailer.close();
  await database.close();
  await mail.close();
  await epay.close();
  appleChain.remove();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

control.listen(controlPort(E2E_PORT), '127.0.0.1');
await app.listen({ host: config.host, port: config.port });
