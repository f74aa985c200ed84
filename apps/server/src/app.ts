import { setTimeout as delay } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { scheduledJobs, startJobs } from './jobs/scheduled-jobs.ts';
import { ADMIN_API_PREFIX, adminApi } from './admin-api.ts';
import { accountRoutes } from './modules/accounts/routes.ts';
import { deviceRoutes } from './modules/devices/routes.ts';
import { nodeStatusRoutes } from './modules/nodes/customer-routes.ts';
import { noticeRoutes } from './modules/notices/routes.ts';
import { helpRoutes } from './modules/help/routes.ts';
import { ticketRoutes } from './modules/tickets/routes.ts';
import { createNodeEvents } from './modules/node-api/events.ts';
import { nodeApiRoutes } from './modules/node-api/routes.ts';
import { uniproxyRoutes } from './modules/uniproxy/routes.ts';
import { invitationRoutes } from './modules/invitations/routes.ts';
import { createFetchLog } from './modules/subscriptions/fetch-log.ts';
import { subscriptionRoutes } from './modules/subscriptions/routes.ts';
import { createLimitCounters } from './modules/limits/counters.ts';
import { createMailer } from './modules/mail/mailer.ts';
import type { PaymentConfirmations } from './modules/orders/payment-confirmation.ts';
import { mailBacklog } from './modules/mail/repository.ts';
import { orderRoutes } from './modules/orders/routes.ts';
import { redeemRoutes } from './modules/redeem-codes/routes.ts';
import { paymentRoutes, createPaymentProvider } from './modules/payments/payments.ts';
import { createGatewayProviders } from './modules/payments/gateway-providers.ts';
import { checkSecretsKey } from './modules/gateways/service.ts';
import { siteRoutes } from './modules/site/routes.ts';
import { unsubscribeRoutes } from './modules/unsubscribe/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { createBotLoader } from './modules/telegram/bot.ts';
import { telegramRoutes } from './modules/telegram/routes.ts';
import { createTelegramWorker } from './modules/telegram/worker.ts';
import { serveOwnerInvites } from './modules/staff/owner-invites-socket.ts';
import { hasStaff } from './modules/staff/repository.ts';
import { inviteOwner } from './modules/staff/service.ts';
import { authPlugin } from './plugins/auth.ts';
import { clientErrorHandler } from './plugins/client-errors.ts';
import { backOfficeHostPlugin } from './plugins/back-office-host.ts';
import { bodiesPlugin } from './plugins/bodies.ts';
import { healthPlugin } from './plugins/health.ts';
import { sendError } from './http/envelope.ts';
import { AppError } from './http/errors.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { replySchemasPlugin } from './plugins/reply-schemas.ts';
import { securityHeadersPlugin, setSecurityHeaders } from './plugins/security-headers.ts';
import { signingPlugin } from './plugins/signing.ts';
import { createMetrics, metricsPlugin } from './plugins/metrics.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { loadSubscriptionKey } from './lib/subscription-key.ts';
import { logSerializers } from './lib/log-redaction.ts';
import { isBackOfficePage, isSitePage, registerSpa } from './plugins/spa.ts';
import { connectRedis } from './redis.ts';

export interface BuildOptions {
  config: Config;
  /** An open database to use instead of the one the config names; the caller closes it. */
  database?: DatabaseHandle;
  /** Where the log goes and from which level, instead of stdout at LOG_LEVEL; false: no log (tests). */
  logger?: false | { stream: DestinationStream; level: string };
}

/** Builds the whole app (migrated database, plugins, routes, SPA) without listening. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app: FastifyInstance = Fastify({
    // Every URL and error in the log goes through the redacting serializers: no token in a log line.
    logger:
      options.logger === false
        ? false
        : { level: config.logLevel, ...options.logger, serializers: logSerializers },
    // Fastify takes a hop count too, though its types list only the other forms.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    bodyLimit: config.bodyLimit,
    genReqId: () => randomUUID(),
    logController: new LogController({
      requestIdLogLabel: 'request_id',
      disableRequestLogging: (request) => request.url === '/healthz',
    }),
    // A URL that cannot be decoded never reaches a route or the hooks: answer it in the envelope,
    // with the headers every reply carries.
    frameworkErrors: (_error, request, reply) => {
      setSecurityHeaders(request.url, reply);
      reply.header('x-request-id', request.id);
      return sendError(request, reply, new AppError(400, 'url_invalid'));
    },
    clientErrorHandler,
    forceCloseConnections: 'idle',
    // Requests that reach a closing instance on an open connection are still answered: a rolling
    // restart must not turn them into errors. New connections are refused by then.
    return503OnClosing: false,
    // A request whose headers and body have not all arrived in time is cut (a slow or stalled
    // client must not hold a connection, nor a shutdown, for ever); checked every second.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(config.requestTimeoutMs, 60_000),
      connectionsCheckingInterval: 1_000,
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Sources are read when scraped, by which time everything below exists.
  const metrics = createMetrics({
    poolStats: () => database.poolStats(),
    limitCounters: () => counters.state(),
    outbox: () => mailBacklog(db, new Date()),
  });
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      holder: 'the server',
      onConnectionError: (error) => {
        metrics.databaseConnectionLost();
        app.log.warn({ err: error }, 'a pooled database connection failed');
      },
    }));
  await database.migrate();
  const { db } = database;
  await checkSecretsKey(db, config.payments.secretsKey, config.env);
  const redis = await connectRedis(config.redisUrl, app.log);
  const counters = createLimitCounters(redis, app.log);
  const mailer = createMailer({
    db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    siteName: config.siteName,
    supportEmail: config.supportEmail,
    log: app.log,
    observe: (event) => metrics.mailDelivery(event.outcome),
  });

  // The subscription links' fetches, written in batches (tests flush it before reading the log).
  const fetchLog = createFetchLog({ db, log: app.log });
  app.decorate('subscriptionFetches', fetchLog);

  // One hook, in this order: mail still being sent and the fetches not yet logged need the database,
  // and the database goes last.
  app.addHook('onClose', async () => {
    await Promise.all([
      // Not for ever: a message whose delivery is cut short stays leased, and any instance's mail job
      // sends it once the lease runs out.
      Promise.race([mailer.close(), delay(config.shutdownTimeoutMs / 2, undefined, { ref: false })]),
      // After the last request (onClose runs once they are answered): every fetch served is logged.
      fetchLog.close(),
    ]);
    redis?.disconnect();
    if (!options.database) {
      await database.close();
      app.log.info('database closed');
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(backOfficeHostPlugin, { adminUrl: config.adminPublicUrl });
  await app.register(metricsPlugin, { metrics, token: config.metrics.token });
  await app.register(rateLimitPlugin, { perMinute: config.rateLimitPerMinute, counters });
  await app.register(bodiesPlugin);
  await app.register(signingPlugin, { secret: config.signatureSecret });
  await app.register(authPlugin, { db, accountChanges: database.accountChanges });
  await app.register(replySchemasPlugin);

  await app.register(healthPlugin, { database, counters, mailer });

  await app.register(siteRoutes, { config });
  await app.register(userRoutes);
  await app.register(accountRoutes, { db, mailer, counters });
  await app.register(invitationRoutes, { db });
  await app.register(noticeRoutes, { db });
  await app.register(helpRoutes, { db, siteName: config.siteName });
  const subscriptionKey = loadSubscriptionKey(config);
  // Where the site is, for links in mail sent by jobs (no request to take it from).
  const siteOrigin = config.payments.publicUrl ?? `http://localhost:${config.port}`;
  await app.register(subscriptionRoutes, {
    db,
    counters,
    fetchLog,
    siteName: config.siteName,
    publicUrl: config.payments.publicUrl,
  });
  await app.register(unsubscribeRoutes, { db, subscriptionKey, siteName: config.siteName });
  await app.register(deviceRoutes, {
    db,
    subscriptionKey,
    onlineIntervalSeconds: config.nodeOnlineIntervalSeconds,
    publicUrl: config.payments.publicUrl,
  });
  // The nodes' change streams end before the server waits for its connections to close.
  const nodeEvents = createNodeEvents(db, app.log);
  app.addHook('preClose', async () => nodeEvents.close());
  await app.register(nodeStatusRoutes, { db });
  await app.register(nodeApiRoutes, {
    db,
    events: nodeEvents,
    onlineIntervalSeconds: config.nodeOnlineIntervalSeconds,
  });
  await app.register(uniproxyRoutes, { db });
  const provider = createPaymentProvider(config);
  const gateways = createGatewayProviders(db, config.payments.secretsKey);
  const confirmations: PaymentConfirmations = { mailer, siteOrigin };
  app.decorate('paymentConfirmations', confirmations);
  await app.register(orderRoutes, {
    db,
    provider,
    gateways,
    counters,
    log: app.log,
    confirmations,
    publicUrl: config.payments.publicUrl,
  });
  await app.register(redeemRoutes, { db, counters });
  await app.register(ticketRoutes, { db });
  const loadBot = createBotLoader(db, config.payments.secretsKey, config.telegram.apiRoot);
  await app.register(telegramRoutes, { db, loadBot });
  await app.register(paymentRoutes, { db, config, counters, confirmations });
  const jobs = scheduledJobs({
    config,
    db,
    mailer,
    confirmations,
    provider,
    gateways,
    log: app.log,
    siteOrigin,
    subscriptionKey,
    adminOrigin: config.adminPublicUrl ?? siteOrigin,
  });

  await app.register(adminApi, {
    prefix: ADMIN_API_PREFIX,
    db,
    counters,
    mailer,
    siteName: config.siteName,
    publicUrl: config.adminPublicUrl ?? config.payments.publicUrl,
    adminUrl: config.adminPublicUrl,
    jobEverySeconds: Object.fromEntries(jobs.map((job) => [job.name, job.everySeconds])),
    provider,
    gateways,
    secretsKey: config.payments.secretsKey,
    siteOrigin,
    telegram: { apiRoot: config.telegram.apiRoot, publicUrl: config.payments.publicUrl, loadBot },
  });

  startJobs(app, db, jobs);
  if (config.telegram.worker) {
    const worker = createTelegramWorker({
      db,
      loadBot,
      publicUrl: config.payments.publicUrl,
      perSecond: config.telegram.perSecond,
      log: app.log,
    });
    // Before the database closes: the worker hands its lease back for another instance to take.
    app.addHook('preClose', () => worker.close());
    worker.start();
  }

  // The first owner while the server runs: `invite-owner` asks this server when it holds the
  // embedded database (on PostgreSQL the command opens the database itself, beside the servers).
  if (database.kind === 'pglite' && !options.database) {
    try {
      const stop = await serveOwnerInvites(config.dataDir, (email) =>
        inviteOwner(db, email, config.adminPublicUrl ?? siteOrigin, new Date()),
      );
      app.addHook('preClose', stop);
    } catch (error) {
      // A data directory whose path is too long for a socket: the server serves on without it.
      app.log.warn({ err: error }, 'invite-owner cannot reach this server: stop it to run the command');
    }
  }
  if (!(await hasStaff(db))) {
    app.log.info(
      "no member of staff yet: `npm run admin -- invite-owner EMAIL` prints the first owner's set-up link",
    );
  }

  const pageFallbacks = [
    await registerSpa(app, {
      name: 'web app',
      distDir: config.webDistDir,
      prefix: '/',
      ownsPage: isSitePage,
      signatureSecret: config.signatureSecret,
    }),
    await registerSpa(app, {
      name: 'back office',
      distDir: config.adminDistDir,
      prefix: '/admin/',
      ownsPage: isBackOfficePage,
    }),
  ];
  app.setNotFoundHandler((request, reply) => {
    for (const servePage of pageFallbacks) {
      const served = servePage(request, reply);
      if (served) return served;
    }
    return sendError(request, reply, new AppError(404, 'not_found'));
  });

  return app;
}
