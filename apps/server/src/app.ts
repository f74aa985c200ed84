import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { siteRoutes } from './modules/site/routes.ts';
import { sessionRoutes } from './modules/sessions/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { bodiesPlugin } from './plugins/bodies.ts';
import { AppError, errorsPlugin, sendError } from './plugins/errors.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { signingPlugin } from './plugins/signing.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { registerSpa } from './plugins/spa.ts';

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
    options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  if (!options.database) {
    app.addHook('onClose', async () => {
      await database.close();
      app.log.info('database closed');
    });
  }
  await database.migrate();
  const { db } = database;

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(rateLimitPlugin, { perMinute: config.rateLimitPerMinute, redisUrl: config.redisUrl });
  await app.register(bodiesPlugin);
  await app.register(signingPlugin, { secret: config.signatureSecret });
  await app.register(authPlugin, { db });

  app.get('/healthz', async (request, reply) => {
    try {
      await database.ping();
      return { status: 'ok', database: database.kind };
    } catch (error) {
      request.log.error({ err: error }, 'health check failed');
      return reply.code(503).send({ status: 'unavailable', database: database.kind });
    }
  });

  await app.register(siteRoutes, { config });
  await app.register(userRoutes);
  await app.register(sessionRoutes, { db });

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
