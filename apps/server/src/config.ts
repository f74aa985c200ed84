import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CARD_PROVIDER_METHODS, PERIOD_NAMES, type Period } from '@skyway/shared/plans';
import { PLATFORMS, type Download, type Platform } from '@skyway/shared/site';

export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
/** Apple's names of its environments (the library's Environment values). */
export const APPLE_ENVIRONMENTS = ['Sandbox', 'Production', 'LocalTesting', 'Xcode'] as const;
export type AppleEnvironmentName = (typeof APPLE_ENVIRONMENTS)[number];
/** Environments whose data Apple does not sign: the library skips every check for them. */
export const UNSIGNED_APPLE_ENVIRONMENTS: readonly AppleEnvironmentName[] = ['LocalTesting', 'Xcode'];

const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

/** A comma-separated list, empty entries dropped; unset or empty is an empty list. */
const commaList = z
  .string()
  .trim()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  );

/** One app-store product: how long it runs and for how many simultaneous connections. */
export interface AppleProduct {
  period: Period;
  connections: number;
}

/** APPLE_PRODUCTS: `product.id=period:connections`, comma-separated. */
const appleProducts = commaList.transform((entries, ctx): Record<string, AppleProduct> => {
  const products: Record<string, AppleProduct> = {};
  for (const entry of entries) {
    const match = /^([^=\s]+)=([a-z_]+):(\d+)$/.exec(entry);
    const period = match?.[2] as Period | undefined;
    const connections = Number(match?.[3]);
    if (
      !match?.[1] ||
      !period ||
      !PERIOD_NAMES.includes(period) ||
      !(connections >= 1 && connections <= 1000)
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not product.id=period:connections (period ${PERIOD_NAMES.join(', ')})`,
      });
      return z.NEVER;
    }
    products[match[1]] = { period, connections };
  }
  return products;
});

/** APPLE_ROOT_CERTS: files of one X.509 certificate each, DER (Apple's download) or PEM; read as DER. */
const certificateFiles = commaList.transform((files, ctx): Buffer[] => {
  const certificates: Buffer[] = [];
  for (const file of files) {
    if (!existsSync(file)) {
      ctx.addIssue({ code: 'custom', message: `no such file: ${file}` });
      continue;
    }
    try {
      certificates.push(new X509Certificate(readFileSync(file)).raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: `${file} is not a certificate (DER or PEM)` });
    }
  }
  return certificates;
});

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

/** DOWNLOAD_WINDOWS_URL, DOWNLOAD_WINDOWS_VERSION, … for each platform. */
type DownloadKey = `DOWNLOAD_${Uppercase<Platform>}_${'URL' | 'VERSION'}`;
const downloadKey = (platform: Platform, field: 'URL' | 'VERSION'): DownloadKey =>
  `DOWNLOAD_${platform.toUpperCase() as Uppercase<Platform>}_${field}`;

const downloadKeys = Object.fromEntries(
  PLATFORMS.flatMap((platform) => [
    [downloadKey(platform, 'URL'), z.string().trim().default(`https://example.com/download/${platform}`)],
    [downloadKey(platform, 'VERSION'), z.string().trim().default('1.0.0')],
  ]),
) as Record<DownloadKey, z.ZodDefault<z.ZodString>>;

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
  ADMIN_DIST_DIR: z
    .string()
    .trim()
    .min(1)
    .default(path.resolve(import.meta.dirname, '../../admin/dist')),
  TRUST_PROXY: trustProxy,
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(64 * 1024),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  METRICS_TOKEN: optionalText.pipe(z.string().min(16).optional()),
  METRICS_PORT: optionalText.pipe(
    z
      .string()
      .regex(/^\d+$/, 'expected a port number')
      .transform(Number)
      .pipe(z.number().int().min(1).max(65535))
      .optional(),
  ),
  INACTIVE_ACCOUNTS_EVERY_MINUTES: z.coerce.number().int().min(0).default(60),
  REMINDERS_EVERY_MINUTES: z.coerce.number().int().min(0).default(15),
  NOTICE_MAIL_EVERY_MINUTES: z.coerce.number().int().min(0).default(1),
  MAIL_EVERY_SECONDS: z.coerce.number().int().min(0).default(15),
  ALERTS_EVERY_SECONDS: z.coerce.number().int().min(0).default(60),
  ALERT_NODE_SILENT_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
  TELEGRAM_WORKER: z.enum(['on', 'off']).default('on'),
  TELEGRAM_API_ROOT: z.url({ protocol: /^https?$/ }).default('https://api.telegram.org'),
  TELEGRAM_PER_SECOND: z.coerce.number().int().min(1).max(30).default(30),
  SIGNATURE_SECRET: optionalText.pipe(z.string().min(8).optional()),
  SUBSCRIPTION_KEY: optionalText.pipe(z.string().min(32).optional()),
  SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().trim().min(3).default('Skyway <no-reply@example.com>'),
  SITE_NAME: z.string().trim().min(1).default('Skyway'),
  SUPPORT_EMAIL: z.email().default('support@example.com'),
  ...downloadKeys,
  PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS).default('sandbox'),
  SANDBOX_PAYMENTS_IN_PRODUCTION: z.enum(['true', 'false']).default('false'),
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  ADMIN_PUBLIC_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/ })
      .refine(
        (value) => /^https?:\/\/[^/?#]+\/?$/.test(value),
        'expected an origin alone (https://admin.example.com): the back office is served at /admin/ on it',
      )
      .optional(),
  ),
  SECRETS_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'expected 64 hex characters (32 random bytes: `openssl rand -hex 32`)')
      .optional(),
  ),
  STRIPE_SECRET_KEY: optionalText.pipe(
    z
      .string()
      .regex(
        /^(sk|rk)_/,
        'expected the secret key (sk_…) or a restricted key (rk_…); a publishable key (pk_…) cannot open a checkout',
      )
      .optional(),
  ),
  STRIPE_WEBHOOK_SECRET: optionalText.pipe(
    z.string().startsWith('whsec_', "expected the webhook endpoint's signing secret (whsec_…)").optional(),
  ),
  // The site's CARD_PROVIDER_METHODS are Stripe Checkout's own names (Alipay and WeChat Pay need
  // enabling in Stripe); kept in their order, the order the buy page offers them in.
  STRIPE_PAYMENT_METHODS: z
    .string()
    .trim()
    .default('card')
    .transform((value) => value.split(',').map((method) => method.trim()))
    .pipe(z.array(z.enum(CARD_PROVIDER_METHODS)).min(1))
    .transform((methods) => CARD_PROVIDER_METHODS.filter((method) => methods.includes(method))),
  STRIPE_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  ORDERS_EVERY_MINUTES: z.coerce.number().int().min(0).default(1),
  DASHBOARD_EVERY_MINUTES: z.coerce.number().int().min(0).default(5),
  TRAFFIC_RECONCILE_EVERY_MINUTES: z.coerce.number().int().min(0).default(1440),
  /** How often answered tickets silent for a week are closed; 0 turns the job off on this instance. */
  TICKETS_EVERY_MINUTES: z.coerce.number().int().min(0).default(60),
  NODE_ONLINE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  APPLE_BUNDLE_ID: optionalText,
  APPLE_APP_ID: optionalText.pipe(
    z.string().regex(/^\d+$/, 'expected the numeric Apple ID of the app').optional(),
  ),
  APPLE_ENVIRONMENT: optionalText.pipe(z.enum(APPLE_ENVIRONMENTS).optional()),
  APPLE_ROOT_CERTS: certificateFiles,
  APPLE_PRODUCTS: appleProducts,
  APPLE_ONLINE_CHECKS: z.enum(['true', 'false']).default('true'),
  APPLE_ISSUER_ID: optionalText,
  APPLE_KEY_ID: optionalText,
  APPLE_PRIVATE_KEY_PATH: optionalText.pipe(
    z
      .string()
      .refine((file) => existsSync(file), 'no such file')
      .optional(),
  ),
  APPLE_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
});

/** Every environment variable the server reads. */
export const ENV_KEYS = Object.keys(envSchema.shape);

type Env = z.infer<typeof envSchema>;

/**
 * What `npm run apple:history` reads: the database and the APPLE_* keys, and none of the server's
 * other keys (a payment provider's, the site's address).
 */
const appleHistoryEnvSchema = envSchema.pick({
  NODE_ENV: true,
  DATABASE_URL: true,
  DATA_DIR: true,
  APPLE_BUNDLE_ID: true,
  APPLE_APP_ID: true,
  APPLE_ENVIRONMENT: true,
  APPLE_ROOT_CERTS: true,
  APPLE_PRODUCTS: true,
  APPLE_ONLINE_CHECKS: true,
  APPLE_ISSUER_ID: true,
  APPLE_KEY_ID: true,
  APPLE_PRIVATE_KEY_PATH: true,
  APPLE_API_URL: true,
});

type AppleEnv = z.infer<typeof appleHistoryEnvSchema>;

/** Subscription links are derived from a key that production must hold outside the database. */
function checkSubscriptionKey(env: Env, ctx: z.RefinementCtx): void {
  if (env.NODE_ENV === 'production' && !env.SUBSCRIPTION_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['SUBSCRIPTION_KEY'],
      message:
        'required with NODE_ENV=production (32+ random characters, the same on every instance): every subscription link is derived from it',
    });
  }
}

/**
 * Rules between keys: a provider's keys are required when it is chosen; no test money in production
 * (unless SANDBOX_PAYMENTS_IN_PRODUCTION says it is a staging site); a production site knows its address.
 */
function checkPayments(env: Env, ctx: z.RefinementCtx): void {
  const testMoneyAllowed = env.NODE_ENV !== 'production' || env.SANDBOX_PAYMENTS_IN_PRODUCTION === 'true';
  if (env.PAYMENT_PROVIDER === 'stripe') {
    for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (!env[key])
        ctx.addIssue({ code: 'custom', path: [key], message: 'required with PAYMENT_PROVIDER=stripe' });
    }
    if (/^(sk|rk)_test_/.test(env.STRIPE_SECRET_KEY ?? '') && !testMoneyAllowed) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message:
          'a test-mode key takes no money and is refused in production; use a live key (sk_live_… or rk_live_…), or set SANDBOX_PAYMENTS_IN_PRODUCTION=true for a staging site',
      });
    }
  }
  if (env.PAYMENT_PROVIDER === 'sandbox' && !testMoneyAllowed) {
    ctx.addIssue({
      code: 'custom',
      path: ['PAYMENT_PROVIDER'],
      message:
        'the sandbox takes no money and is refused in production; choose a real provider, or set SANDBOX_PAYMENTS_IN_PRODUCTION=true',
    });
  }
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['PUBLIC_URL'],
      message:
        "required with NODE_ENV=production: without it the links buyers return to from checkout follow each request's Host header",
    });
  }
}

/** The back office's own address must not be the site's: a customer page would share its origin. */
function checkBackOfficeAddress(env: Env, ctx: z.RefinementCtx): void {
  if (
    env.ADMIN_PUBLIC_URL &&
    env.PUBLIC_URL &&
    new URL(env.ADMIN_PUBLIC_URL).host === new URL(env.PUBLIC_URL).host
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['ADMIN_PUBLIC_URL'],
      message: "must be another host than PUBLIC_URL's (admin.example.com beside example.com)",
    });
  }
}

/**
 * App-store keys: all there once APPLE_BUNDLE_ID turns it on, and none without it (they would do
 * nothing, silently); never unsigned data in production.
 */
function checkApple(env: AppleEnv, ctx: z.RefinementCtx): void {
  const problem = (key: keyof typeof env, message: string) =>
    ctx.addIssue({ code: 'custom', path: [key], message });
  const needingBundleId = Object.entries({
    APPLE_APP_ID: Boolean(env.APPLE_APP_ID),
    APPLE_ENVIRONMENT: Boolean(env.APPLE_ENVIRONMENT),
    APPLE_ROOT_CERTS: env.APPLE_ROOT_CERTS.length > 0,
    APPLE_PRODUCTS: Object.keys(env.APPLE_PRODUCTS).length > 0,
    APPLE_ISSUER_ID: Boolean(env.APPLE_ISSUER_ID),
    APPLE_KEY_ID: Boolean(env.APPLE_KEY_ID),
    APPLE_PRIVATE_KEY_PATH: Boolean(env.APPLE_PRIVATE_KEY_PATH),
    APPLE_API_URL: Boolean(env.APPLE_API_URL),
  }).flatMap(([key, set]) => (set ? [key] : []));
  if (!env.APPLE_BUNDLE_ID && needingBundleId.length > 0) {
    problem(
      'APPLE_BUNDLE_ID',
      `required with ${needingBundleId.join(', ')}: without it App Store notifications are off (the notify route answers 404)`,
    );
  }
  if (env.APPLE_BUNDLE_ID) {
    if (!env.APPLE_ENVIRONMENT) problem('APPLE_ENVIRONMENT', 'required with APPLE_BUNDLE_ID');
    if (Object.keys(env.APPLE_PRODUCTS).length === 0)
      problem('APPLE_PRODUCTS', 'required with APPLE_BUNDLE_ID');
    const signed = env.APPLE_ENVIRONMENT === 'Sandbox' || env.APPLE_ENVIRONMENT === 'Production';
    if (signed && env.APPLE_ROOT_CERTS.length === 0)
      problem('APPLE_ROOT_CERTS', `required with APPLE_ENVIRONMENT=${env.APPLE_ENVIRONMENT}`);
    if (env.APPLE_ENVIRONMENT === 'Production' && !env.APPLE_APP_ID)
      problem('APPLE_APP_ID', 'required with APPLE_ENVIRONMENT=Production');
  }
  if (
    env.NODE_ENV === 'production' &&
    env.APPLE_ENVIRONMENT &&
    UNSIGNED_APPLE_ENVIRONMENTS.includes(env.APPLE_ENVIRONMENT)
  ) {
    problem(
      'APPLE_ENVIRONMENT',
      `${env.APPLE_ENVIRONMENT} data is not signed by Apple and is refused in production; use Production or Sandbox`,
    );
  }
  const api = [env.APPLE_ISSUER_ID, env.APPLE_KEY_ID, env.APPLE_PRIVATE_KEY_PATH];
  if (api.some(Boolean) && !api.every(Boolean)) {
    for (const key of ['APPLE_ISSUER_ID', 'APPLE_KEY_ID', 'APPLE_PRIVATE_KEY_PATH'] as const) {
      if (!env[key])
        problem(
          key,
          'the App Store Server API needs APPLE_ISSUER_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY_PATH together',
        );
    }
  }
}

/** App Store Server Notifications; undefined when APPLE_BUNDLE_ID is unset (the route is off). */
function appleConfig(env: AppleEnv) {
  if (!env.APPLE_BUNDLE_ID || !env.APPLE_ENVIRONMENT) return undefined;
  return {
    bundleId: env.APPLE_BUNDLE_ID,
    /** The app's numeric Apple ID (required in Production, where notifications are checked against it). */
    appAppleId: env.APPLE_APP_ID ? Number(env.APPLE_APP_ID) : undefined,
    environment: env.APPLE_ENVIRONMENT,
    /** The trusted root certificates, DER (read from APPLE_ROOT_CERTS): Apple Root CA - G3 in real use. */
    rootCertificates: env.APPLE_ROOT_CERTS,
    /** Product id → what it grants. */
    products: env.APPLE_PRODUCTS,
    /** Certificate revocation (OCSP) checks against Apple, and validity judged at the present time. */
    onlineChecks: env.APPLE_ONLINE_CHECKS === 'true',
    /** App Store Server API credentials (the notification-history command); undefined when not set. */
    api:
      env.APPLE_ISSUER_ID && env.APPLE_KEY_ID && env.APPLE_PRIVATE_KEY_PATH
        ? {
            issuerId: env.APPLE_ISSUER_ID,
            keyId: env.APPLE_KEY_ID,
            privateKeyPath: path.resolve(env.APPLE_PRIVATE_KEY_PATH),
          }
        : undefined,
    /** Another address for the App Store Server API (a test server, an egress proxy); unset: Apple's own. */
    apiUrl: env.APPLE_API_URL?.replace(/\/+$/, ''),
  };
}

/** The download links shown on the site; an empty URL hides its platform. */
function downloads(env: Env): Download[] {
  return PLATFORMS.map((platform) => ({
    platform,
    url: env[downloadKey(platform, 'URL')],
    version: env[downloadKey(platform, 'VERSION')],
  })).filter((download) => download.url !== '');
}

/** The server's whole configuration: the environment checked key by key, then between keys. */
const configSchema = envSchema
  .superRefine((env, ctx) => {
    checkPayments(env, ctx);
    checkSubscriptionKey(env, ctx);
    checkApple(env, ctx);
    checkBackOfficeAddress(env, ctx);
  })
  .transform((env) => ({
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.DATA_DIR),
    redisUrl: env.REDIS_URL,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    webDistDir: path.resolve(env.WEB_DIST_DIR),
    adminDistDir: path.resolve(env.ADMIN_DIST_DIR),
    trustProxy: env.TRUST_PROXY,
    bodyLimit: env.BODY_LIMIT,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    /** A request whose headers and body have not all arrived within this is cut (slow clients). */
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    /** Prometheus metrics: `/metrics` behind this bearer token, and/or on a port of their own. */
    metrics: { token: env.METRICS_TOKEN, port: env.METRICS_PORT },
    /** How often the inactive-accounts job runs; 0 turns it off on this instance. */
    inactiveAccountsEveryMinutes: env.INACTIVE_ACCOUNTS_EVERY_MINUTES,
    /** How often the expiry reminders due are mailed; 0 turns the job off on this instance. */
    remindersEveryMinutes: env.REMINDERS_EVERY_MINUTES,
    /** How often the published notices marked for mail are mailed on; 0 turns the job off on this instance. */
    noticeMailEveryMinutes: env.NOTICE_MAIL_EVERY_MINUTES,
    /** How often the mail queue is worked (retries, expired codes); 0 turns it off on this instance. */
    mailEverySeconds: env.MAIL_EVERY_SECONDS,
    /** How often staff alerts are checked; 0 turns the job off on this instance. */
    alertsEverySeconds: env.ALERTS_EVERY_SECONDS,
    /** A node whose agent was not heard from for this long raises an alert. */
    alertNodeSilentMinutes: env.ALERT_NODE_SILENT_MINUTES,
    telegram: {
      /** Whether this instance competes for the bot's worker lease (polling and sending); off: it never does. */
      worker: env.TELEGRAM_WORKER === 'on',
      /** Telegram's Bot API (a stand-in on the loopback in tests). */
      apiRoot: env.TELEGRAM_API_ROOT.replace(/\/+$/, ''),
      /** Messages a second across every instance (Telegram's limit is about 30). */
      perSecond: env.TELEGRAM_PER_SECOND,
    },
    signatureSecret: env.SIGNATURE_SECRET,
    /** The key subscription tokens are derived with; unset outside production: a key file in DATA_DIR. */
    subscriptionKey: env.SUBSCRIPTION_KEY,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    siteName: env.SITE_NAME,
    supportEmail: env.SUPPORT_EMAIL,
    downloads: downloads(env),
    /**
     * The back office's own origin: when set, `/admin/` answers on that host alone and the staff
     * cookie is bound to it; unset, the back office is served on every host, beside the site.
     */
    adminPublicUrl: env.ADMIN_PUBLIC_URL && new URL(env.ADMIN_PUBLIC_URL).origin,
    payments: {
      provider: env.PAYMENT_PROVIDER,
      /**
       * The site's address for return links given to a provider (required in production); unset:
       * taken from each request.
       */
      publicUrl: env.PUBLIC_URL?.replace(/\/+$/, ''),
      stripe: {
        secretKey: env.STRIPE_SECRET_KEY ?? '',
        webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '',
        /** The methods the buy page offers, in PAY_METHODS order. */
        methods: env.STRIPE_PAYMENT_METHODS,
        /** Another address for Stripe's API (a test server, an egress proxy); unset: Stripe's own. */
        apiUrl: env.STRIPE_API_URL,
      },
      apple: appleConfig(env),
      /**
       * The key the payment gateways' keys are encrypted with (AES-256-GCM), the same on every
       * instance; unset, no gateway can be saved (modules/gateways/secrets.ts).
       */
      secretsKey: env.SECRETS_KEY ? Buffer.from(env.SECRETS_KEY, 'hex') : undefined,
    },
    /** How often unpaid orders past their deadline are closed; 0 turns it off on this instance. */
    ordersEveryMinutes: env.ORDERS_EVERY_MINUTES,
    /** How often the dashboard's hourly figures and subscriber counts are brought up to date; 0: off here. */
    dashboardEveryMinutes: env.DASHBOARD_EVERY_MINUTES,
    /** How often the traffic ledger is checked against the nodes' reports (daily); 0: off here. */
    trafficReconcileEveryMinutes: env.TRAFFIC_RECONCILE_EVERY_MINUTES,
    ticketsEveryMinutes: env.TICKETS_EVERY_MINUTES,
    /**
     * How often node agents send the addresses each credential is live from: one device per slot is
     * enforced within a few of these after the grace window.
     */
    nodeOnlineIntervalSeconds: env.NODE_ONLINE_INTERVAL_SECONDS,
  }));

export type Config = z.output<typeof configSchema>;
export type AppleConfig = NonNullable<Config['payments']['apple']>;

/** What `npm run apple:history` needs: the database and the App Store keys, checked as the server checks them. */
const appleHistoryConfigSchema = appleHistoryEnvSchema.superRefine(checkApple).transform((env) => ({
  env: env.NODE_ENV,
  databaseUrl: env.DATABASE_URL,
  dataDir: path.resolve(env.DATA_DIR),
  apple: appleConfig(env),
}));

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment with one schema at once; a bad value anywhere throws with every bad key listed. */
function parseEnv<Schema extends z.ZodType>(schema: Schema, source: NodeJS.ProcessEnv): z.output<Schema> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(problems);
  }
  return parsed.data;
}

/** The server's whole configuration. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  return parseEnv(configSchema, source);
}

export function loadAppleHistoryConfig(
  source: NodeJS.ProcessEnv = process.env,
): z.output<typeof appleHistoryConfigSchema> {
  return parseEnv(appleHistoryConfigSchema, source);
}
