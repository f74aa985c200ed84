import Busboy from '@fastify/busboy';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../http/errors.ts';
import { requestLanguage } from '../http/language.ts';

const MAX_FIELDS = 100;

/** Reads the fields of a buffered multipart body; any file part refuses the whole request. */
function parseMultipart(request: FastifyRequest, body: Buffer): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    // The browser helper sends an empty FormData as a bare content type with no parts at all.
    if (body.length === 0) return resolve({});
    const fields: Record<string, string> = Object.create(null);
    let failure: AppError | undefined;
    let parser: InstanceType<typeof Busboy>;
    try {
      parser = new Busboy({
        headers: request.headers as ConstructorParameters<typeof Busboy>[0]['headers'],
        limits: { fields: MAX_FIELDS, fieldSize: body.length },
      });
    } catch {
      // A multipart content type without a boundary (or with a broken one) cannot be read at all.
      return reject(new AppError(400, 'body_invalid'));
    }
    parser.on('file', (_name, stream) => {
      failure ??= new AppError(400, 'files_not_accepted');
      stream.resume();
    });
    parser.on('field', (name: string, value: string) => {
      fields[name] = value;
    });
    parser.on('fieldsLimit', () => {
      failure ??= new AppError(413, 'payload_too_large');
    });
    parser.on('error', () => reject(new AppError(400, 'body_invalid')));
    parser.on('finish', () => (failure ? reject(failure) : resolve({ ...fields })));
    parser.end(body);
  });
}

/**
 * The first field (of the body, the path or the query) whose value holds a NUL character anywhere
 * inside it: no text of the site can contain one, and PostgreSQL refuses it in text, so it would
 * turn a bad input into a failure.
 */
function fieldWithNul(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  for (const [field, value] of Object.entries(body)) {
    // Iterative: a JSON body nested thousands deep must not overflow the stack.
    const pending: unknown[] = [field, value];
    while (pending.length > 0) {
      const next = pending.pop();
      if (typeof next === 'string' && next.includes('\u0000')) return field;
      if (next && typeof next === 'object') {
        for (const [key, inner] of Object.entries(next)) pending.push(key, inner);
      }
    }
  }
  return undefined;
}

/**
 * JSON, urlencoded and multipart bodies are all accepted on every call (spec section 7 shows both
 * JSON and multipart). Each is read whole under the body limit, so an oversized body of any kind is
 * a 413; an empty body is an empty payload.
 */
export const bodiesPlugin = fp(
  async (app: FastifyInstance) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    // Only the three encodings of the spec: anything else, plain text included, is a 415.
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (typeof body === 'string' && body.trim() === '') return done(null, {});
      parseJson(request, body as string, (error, value) =>
        error ? done(new AppError(400, 'body_invalid')) : done(null, value),
      );
    });

    await app.register(formbody);

    app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
      parseMultipart(request, body as Buffer).then(
        (fields) => done(null, fields),
        (error: Error) => done(error),
      );
    });

    app.decorateRequest('language', null);
    app.addHook('preValidation', async (request) => {
      // Calls without a payload may send no body at all: treat it as an empty payload.
      if (request.body === undefined || request.body === null) request.body = {};
      // Read before validation, which strips fields that a call does not declare, `l` among them.
      request.language = requestLanguage(request);
      const field = fieldWithNul(request.body) ?? fieldWithNul(request.params) ?? fieldWithNul(request.query);
      if (field !== undefined) throw new AppError(400, 'field_invalid', { field });
    });
  },
  { name: 'bodies' },
);
