import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { LimitCounters } from '../limits/counters.ts';
import { siteOrigin } from '../../lib/site-origin.ts';
import { type Format, FORMATS, formatForUserAgent } from './formats.ts';
import type { FetchLog } from './fetch-log.ts';
import { subscriptionPage } from './page.ts';
import { subscriptionFor } from './service.ts';

/** Fetches of one link per hour: an app polls every few hours; more is a leak being scraped. */
export const FETCHES_PER_HOUR = 120;
/** Hours between an app's updates of the subscription (`profile-update-interval`). */
const UPDATE_HOURS = 12;

const CONTENT_TYPES: Record<Format, string> = {
  clash: 'text/yaml; charset=utf-8',
  'sing-box': 'application/json; charset=utf-8',
  sip008: 'application/json; charset=utf-8',
  base64: 'text/plain; charset=utf-8',
};
const EXTENSIONS: Record<Format, string> = {
  clash: 'yaml',
  'sing-box': 'json',
  sip008: 'json',
  base64: 'txt',
};

const wantsPage = (request: FastifyRequest) => /\btext\/html\b/.test(String(request.headers.accept ?? ''));

/**
 * A slot's subscription link (PRODUCT.md section 6): `GET /s/TOKEN` in the format its app reads (by
 * User-Agent; a browser gets a page with the QR code and import buttons), or `GET /s/TOKEN/FORMAT`.
 * Not a `/web/` call: the reply is the file itself, with the headers the apps read.
 */
export async function subscriptionRoutes(
  app: FastifyInstance,
  options: {
    db: Database;
    counters: LimitCounters;
    /** Where each fetch is logged, in batches. */
    fetchLog: FetchLog;
    siteName: string;
    publicUrl: string | undefined;
  },
): Promise<void> {
  const notFound = (reply: FastifyReply) =>
    reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('not found\n');

  async function serve(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    asked: string | undefined,
  ) {
    if (asked !== undefined && !(FORMATS as readonly string[]).includes(asked)) return notFound(reply);
    const page = asked === undefined && wantsPage(request);
    const format: Format = (asked as Format | undefined) ?? formatForUserAgent(request.headers['user-agent']);
    const now = new Date();
    const origin = siteOrigin(request, options.publicUrl);
    const found = await subscriptionFor(options, { token, format, origin, now });
    if (!found) return notFound(reply);
    const limit = options.counters.hitSoon(`subscription:${found.slotId}`, 3600);
    if (limit.count > FETCHES_PER_HOUR) {
      return reply
        .code(429)
        .header('retry-after', String(limit.resetIn))
        .type('text/plain; charset=utf-8')
        .send('too many requests\n');
    }
    options.fetchLog.record({
      slotId: found.slotId,
      at: now,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      format: page ? 'page' : format,
    });
    reply.header('cache-control', 'no-store');
    if (page) {
      const url = `${origin}/s/${token}`;
      const html = await subscriptionPage({
        url,
        title: options.siteName,
        language: found.language,
        state: found.state,
      });
      return reply.type('text/html; charset=utf-8').send(html);
    }
    return reply
      .type(CONTENT_TYPES[format])
      .header(
        'subscription-userinfo',
        `upload=${found.usage.upload}; download=${found.usage.download}; total=0; expire=${found.expire}`,
      )
      .header('profile-update-interval', String(UPDATE_HOURS))
      .header('profile-title', `base64:${Buffer.from(options.siteName).toString('base64')}`)
      .header('profile-web-page-url', `${origin}/devices`)
      .header(
        'content-disposition',
        `attachment; filename*=UTF-8''${encodeURIComponent(`${options.siteName}.${EXTENSIONS[format]}`)}`,
      )
      .send(found.body);
  }

  app.get<{ Params: { token: string } }>('/s/:token', (request, reply) =>
    serve(request, reply, request.params.token, undefined),
  );
  app.get<{ Params: { token: string; format: string } }>('/s/:token/:format', (request, reply) =>
    serve(request, reply, request.params.token, request.params.format),
  );
  // Anything else under /s/ is a link that does not exist, never a page of the site: a token longer
  // than the router takes in a parameter (100 characters) or a path with more segments.
  app.get('/s/*', (_request, reply) => notFound(reply));
}
