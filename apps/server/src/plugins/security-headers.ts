import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { isCallPath } from './call-paths.ts';

/**
 * The built SPA loads only its own files and has no inline script; antd writes its styles at run
 * time, hence 'unsafe-inline' for styles only.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join(';');

/**
 * Headers of the pages and files, the same whatever answers them (a route, an error, a malformed
 * URL): the browser renders these, so they carry the page's policy and the document-only headers.
 */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/**
 * Headers of the calls' JSON replies (`/web/` and `/admin/api/`), OWASP's set for a REST API: never stored, never
 * rendered as a document (nothing may load, nothing may frame it), never sniffed, never read by
 * another site. The document-only headers would add some 400 bytes to every call for nothing.
 */
export const CALL_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** Sets the security headers of a call's or a page's reply; also for replies made outside the hooks. */
export function setSecurityHeaders(url: string, reply: FastifyReply): void {
  reply.headers(isCallPath(url) ? CALL_HEADERS : DOCUMENT_HEADERS);
}

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => setSecurityHeaders(request.url, reply));
  },
  { name: 'security-headers' },
);
