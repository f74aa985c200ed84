import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_LANGUAGE,
  type Language,
  languageFromAcceptLanguage,
  languageFromParam,
} from '@skyway/shared/languages';

function fieldL(source: unknown): unknown {
  return source && typeof source === 'object' ? (source as Record<string, unknown>).l : undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's language, fixed once the body is read; null before. */
    language: Language | null;
  }
}

/** The caller's language: the `l` field (body or query), else Accept-Language, else English. */
export function requestLanguage(request: FastifyRequest): Language {
  return (
    request.language ??
    languageFromParam(fieldL(request.body)) ??
    languageFromParam(fieldL(request.query)) ??
    languageFromAcceptLanguage(request.headers['accept-language']) ??
    DEFAULT_LANGUAGE
  );
}
