import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { INACTIVE_ACCOUNTS_JOB, runInactiveAccounts } from './jobs/inactive-accounts.ts';
import { findJobRun } from './jobs/job-runs.ts';
import { ORDERS_JOB, runOrdersJob } from './jobs/orders.ts';
import { scheduleJob } from './jobs/scheduler.ts';
import { accountRoutes } from './modules/accounts/routes.ts';
import { invitationRoutes } from './modules/invitations/routes.ts';
import { createMemoryCounters, createRedisCounters } from './modules/limits/counters.ts';
import { createMailer } from './modules/mail/mailer.ts';
import { orderRoutes } from './modules/orders/routes.ts';
import { paymentRoutes, createPaymentProvider } from './modules/payments/payments.ts';
import { siteRoutes } from './modules/site/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { bodiesPlugin } from './plugins/bodies.ts';
import { AppError, errorsPlugin, sendError } from './plugins/errors.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { signingPlugin } from './plugins/signing.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { registerSpa } from './plugins/spa.ts';
import { connectRedis } from './redis.ts';

export interface BuildOptions {
  config: Config;
  /** An open database to use instead of the one the config names; the caller closes it. */
  database?: DatabaseHandle;
  /** Pino options, or false for no logs (tests). */
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole app (migrated database, plugins, routes, SPA) without listening. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app: FastifyInstance = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    // Fastify takes a hop count too, though its types list only the other forms.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    bodyLimit: config.bodyLimit,
    genReqId: () => randomUUID(),
    logController: new LogController({
      requestIdLogLabel: 'request_id',
      disableRequestLogging: (request) => request.url === '/healthz',
    }),
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      onConnectionError: (error) => app.log.warn({ err: error }, 'a pooled database connection failed'),
    }));
  await database.migrate();
  const { db } = database;
  const redis = await connectRedis(config.redisUrl);
  const counters = redis ? createRedisCounters(redis) : createMemoryCounters();
  const mailer = createMailer({
    db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    siteName: config.siteName,
    supportEmail: config.supportEmail,
    log: app.log,
  });

  // One hook, in this order: mail still queued needs the database, and the database goes last.
  app.addHook('onClose', async () => {
    await mailer.idle();
    await redis?.quit();
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
  await app.register(rateLimitPlugin, { perMinute: config.rateLimitPerMinute, redis });
  await app.register(bodiesPlugin);
  await app.register(signingPlugin, { secret: config.signatureSecret });
  await app.register(authPlugin, { db });

  app.get('/healthz', async (request, reply) => {
    try {
      await database.ping();
      const jobs = Object.fromEntries(
        await Promise.all(
          [INACTIVE_ACCOUNTS_JOB, ORDERS_JOB].map(async (name) => [
            name,
            (await findJobRun(db, name))?.lastFinishedAt?.toISOString() ?? null,
          ]),
        ),
      );
      // Jobs run on whichever instance gets to them: this says when any of them last finished one.
      return { status: 'ok', database: database.kind, jobs };
    } catch (error) {
      request.log.error({ err: error }, 'health check failed');
      return reply.code(503).send({ status: 'unavailable', database: database.kind });
    }
  });

  await app.register(siteRoutes, { config });
  await app.register(userRoutes, { db });
  await app.register(accountRoutes, { db, mailer, counters });
  await app.register(invitationRoutes, { db });
  const provider = createPaymentProvider(config);
  await app.register(orderRoutes, {
    db,
    provider,
    counters,
    log: app.log,
    publicUrl: config.payments.publicUrl,
  });
  await app.register(paymentRoutes, { db, config });

  if (config.inactiveAccountsEveryMinutes > 0) {
    scheduleJob(app, INACTIVE_ACCOUNTS_JOB, config.inactiveAccountsEveryMinutes * 60_000, (now) =>
      runInactiveAccounts({ db, mailer, now }),
    );
  }

  if (config.ordersEveryMinutes > 0) {
    scheduleJob(app, ORDERS_JOB, config.ordersEveryMinutes * 60_000, (now) => runOrdersJob(db, now));
  }

  const servePage = await registerSpa(app, {
    distDir: config.webDistDir,
    signatureSecret: config.signatureSecret,
  });
  app.setNotFoundHandler(
    (request, reply) =>
      servePage(request, reply) ?? sendError(request, reply, new AppError(404, 'not_found')),
  );

  return app;
}
