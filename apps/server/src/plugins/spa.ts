import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

interface Encoded {
  body: Buffer;
  encoding?: 'br' | 'gzip';
}

interface IndexPage {
  variants: { br: Buffer; gzip: Buffer; identity: Buffer };
  etag: string;
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * index.html with what the client needs at run time: the signing secret, when set, as a meta tag
 * (data, not script, so the CSP stays strict and one build serves every deployment).
 */
function loadIndexPage(distDir: string, signatureSecret: string | undefined): IndexPage {
  let html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  if (signatureSecret) {
    const meta = `<meta name="signature-secret" content="${escapeAttribute(signatureSecret)}">`;
    html = html.replace('</head>', `${meta}</head>`);
  }
  const identity = Buffer.from(html);
  return {
    variants: {
      identity,
      gzip: gzipSync(identity, { level: 9 }),
      br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    },
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
  };
}

function pickEncoding(page: IndexPage, acceptEncoding: string | undefined): Encoded {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  if (/\bbr\b/.test(accepted)) return { body: page.variants.br, encoding: 'br' };
  if (/\bgzip\b/.test(accepted)) return { body: page.variants.gzip, encoding: 'gzip' };
  return { body: page.variants.identity };
}

const extensionless = (pathname: string) => !path.posix.basename(pathname).includes('.');
export const inBackOffice = (pathname: string) => pathname === '/admin' || pathname.startsWith('/admin/');

/** The customer site's pages: GET paths outside the calls and the back office, without a file extension. */
export function isSitePage(pathname: string): boolean {
  if (pathname === '/index.html') return true;
  if (pathname.startsWith('/web/') || pathname === '/web' || pathname === '/healthz') return false;
  return !inBackOffice(pathname) && extensionless(pathname);
}

/** The back office's pages: under /admin, outside its API, without a file extension. */
export function isBackOfficePage(pathname: string): boolean {
  if (pathname === '/admin/index.html') return true;
  return inBackOffice(pathname) && !pathname.startsWith('/admin/api/') && extensionless(pathname);
}

export type PageFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

export interface SpaOptions {
  /** What the log calls it when it is not built. */
  name: string;
  distDir: string;
  /** Where its files are served: `/` or a folder such as `/admin/`. */
  prefix: string;
  /** Which paths are its client router's pages. */
  ownsPage: (pathname: string) => boolean;
  signatureSecret?: string | undefined;
}

/**
 * Serves a built single-page app: hashed assets cached for a year, pre-compressed variants when
 * present, and index.html (never cached) for every page path, so the client router handles them.
 * Returns the fallback that the app's not-found handler calls; it answers undefined when the path is
 * not one of this app's pages. Several apps can be served side by side under their own prefixes.
 */
export async function registerSpa(app: FastifyInstance, options: SpaOptions): Promise<PageFallback> {
  if (!existsSync(path.join(options.distDir, 'index.html'))) {
    app.log.warn(
      { distDir: options.distDir },
      `${options.name} not built: its pages are not served (npm run build)`,
    );
    return () => undefined;
  }
  const page = loadIndexPage(options.distDir, options.signatureSecret);

  await app.register(fastifyStatic, {
    root: options.distDir,
    prefix: options.prefix,
    // Only the first static plugin may add reply.sendFile; the pages here do not use it.
    decorateReply: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    allowedPath: (pathName) => pathName !== '/index.html',
    setHeaders: (reply, filePath) => {
      const immutable = filePath.startsWith(path.join(options.distDir, 'assets') + path.sep);
      reply.header(
        'cache-control',
        immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
    },
  });

  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .header('etag', page.etag);
    if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
    const { body, encoding } = pickEncoding(page, request.headers['accept-encoding']);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.code(200).send(body);
  };
  // The static handler treats the prefix itself as a directory; it is the app's home page.
  app.get(options.prefix, sendPage);

  return (request, reply) =>
    ['GET', 'HEAD'].includes(request.method) && options.ownsPage(request.url.split('?')[0] ?? '')
      ? sendPage(request, reply)
      : undefined;
}
