import path from 'node:path';
import { z } from 'zod';
import { PLATFORMS, type Download } from '@skyway/shared/site';

const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

/**
 * TRUST_PROXY: `false` (default: the socket address is the client), `true` (trust every proxy), a
 * hop count, or a comma-separated list of proxy addresses/CIDRs.
 */
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((value, ctx): boolean | number | string[] => {
    if (value === 'false' || value === '') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.every((entry) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(entry))) return entries;
    ctx.addIssue({ code: 'custom', message: 'expected false, true, a hop count or a list of addresses' });
    return z.NEVER;
  });

const downloadKeys = Object.fromEntries(
  PLATFORMS.flatMap((platform) => [
    [
      `DOWNLOAD_${platform.toUpperCase()}_URL`,
      z.string().trim().default(`https://example.com/download/${platform}`),
    ],
    [`DOWNLOAD_${platform.toUpperCase()}_VERSION`, z.string().trim().default('1.0.0')],
  ]),
) as Record<string, z.ZodDefault<z.ZodString>>;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: optionalText.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  WEB_DIST_DIR: z
    .string()
    .trim()
    .min(1)
    .default(path.resolve(import.meta.dirname, '../../web/dist')),
  TRUST_PROXY: trustProxy,
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(64 * 1024),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  INACTIVE_ACCOUNTS_EVERY_MINUTES: z.coerce.number().int().min(0).default(60),
  SIGNATURE_SECRET: optionalText.pipe(z.string().min(8).optional()),
  SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().trim().min(3).default('Skyway <no-reply@example.com>'),
  SITE_NAME: z.string().trim().min(1).default('Skyway'),
  SUPPORT_EMAIL: z.email().default('support@example.com'),
  ...downloadKeys,
});

export type Env = z.infer<typeof envSchema>;

/** Every environment variable the server reads. */
export const ENV_KEYS = Object.keys(envSchema.shape);

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  logLevel: Env['LOG_LEVEL'];
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  rateLimitPerMinute: number;
  webDistDir: string;
  trustProxy: boolean | number | string[];
  bodyLimit: number;
  shutdownTimeoutMs: number;
  /** How often the inactive-accounts job runs; 0 turns it off on this instance. */
  inactiveAccountsEveryMinutes: number;
  signatureSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  siteName: string;
  supportEmail: string;
  downloads: Download[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the whole environment at once; a bad value anywhere throws with every bad key listed. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(problems);
  }
  const env = parsed.data as Env & Record<string, string>;
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.DATA_DIR),
    redisUrl: env.REDIS_URL,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    webDistDir: path.resolve(env.WEB_DIST_DIR),
    trustProxy: env.TRUST_PROXY,
    bodyLimit: env.BODY_LIMIT,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    inactiveAccountsEveryMinutes: env.INACTIVE_ACCOUNTS_EVERY_MINUTES,
    signatureSecret: env.SIGNATURE_SECRET,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    siteName: env.SITE_NAME,
    supportEmail: env.SUPPORT_EMAIL,
    downloads: PLATFORMS.map((platform) => ({
      platform,
      url: env[`DOWNLOAD_${platform.toUpperCase()}_URL`] ?? '',
      version: env[`DOWNLOAD_${platform.toUpperCase()}_VERSION`] ?? '',
    })).filter((download) => download.url !== ''),
  };
}
