import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, ENV_KEYS, loadAppleHistoryConfig, loadConfig } from './config.ts';
import { makeTestChain, type TestChain } from './testing/apple-chain.ts';

const root = path.resolve(import.meta.dirname, '../../..');

/** The start-up error lines of an environment, or [] when it starts. */
function problemLines(
  env: Record<string, string>,
  load: (env: Record<string, string>) => unknown = loadConfig,
) {
  try {
    load(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
  return [];
}

const SUBSCRIPTION_KEY = 'config-test-subscription-key-0123456789';

describe('config', () => {
  let chain: TestChain;
  beforeAll(() => {
    chain = makeTestChain();
  });
  afterAll(() => chain.remove());

  it('starts with no variables at all: embedded database, port 8080, signing off', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 8080,
      databaseUrl: undefined,
      dataDir: path.resolve('data'),
      signatureSecret: undefined,
      trustProxy: false,
    });
    expect(config.downloads.map((d) => d.platform)).toEqual(['windows', 'macos', 'android', 'ios']);
  });

  it('lists every bad key at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x/y',
        SUPPORT_EMAIL: 'nope',
        TRUST_PROXY: 'maybe?',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((problem) => problem.split(':')[0]);
    expect(problems.sort()).toEqual(['DATABASE_URL', 'PORT', 'SUPPORT_EMAIL', 'TRUST_PROXY']);
    expect((error as Error).message).toContain('PORT');
  });

  it('pays through the sandbox by default, and refuses it in production unless allowed', () => {
    expect(loadConfig({}).payments.provider).toBe('sandbox');
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /PAYMENT_PROVIDER: the sandbox takes no money/,
    );
    const allowed = loadConfig({
      NODE_ENV: 'production',
      SUBSCRIPTION_KEY,
      SANDBOX_PAYMENTS_IN_PRODUCTION: 'true',
      PUBLIC_URL: 'https://staging.example.com',
    });
    expect(allowed.payments.provider).toBe('sandbox');
  });

  it('needs the Stripe keys when Stripe is chosen, and knows its payment methods', () => {
    let error: unknown;
    try {
      loadConfig({ PAYMENT_PROVIDER: 'stripe' });
    } catch (caught) {
      error = caught;
    }
    const problems = (error as ConfigError).problems.map((problem) => problem.split(':')[0]);
    expect(problems.sort()).toEqual(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
    expect(() => loadConfig({ STRIPE_PAYMENT_METHODS: 'card,paypal' })).toThrow(/STRIPE_PAYMENT_METHODS/);
    const stripe = loadConfig({
      NODE_ENV: 'production',
      SUBSCRIPTION_KEY,
      PUBLIC_URL: 'https://www.example.com',
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_PAYMENT_METHODS: 'card, wechat_pay,alipay,card',
    });
    // In the order the buy page offers them, whatever the order of the list.
    expect(stripe.payments.stripe.methods).toEqual(['alipay', 'wechat_pay', 'card']);
    expect(loadConfig({}).payments.stripe.methods).toEqual(['card']);
  });

  it('keeps App Store notifications off until APPLE_BUNDLE_ID, then needs the other Apple keys', () => {
    expect(loadConfig({}).payments.apple).toBeUndefined();
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as ConfigError).problems.map((problem) => problem.split(':')[0]).sort();
      }
      return [];
    };
    expect(problemsOf({ APPLE_BUNDLE_ID: 'com.example.app', APPLE_ENVIRONMENT: 'Production' })).toEqual([
      'APPLE_APP_ID',
      'APPLE_PRODUCTS',
      'APPLE_ROOT_CERTS',
    ]);
    expect(problemsOf({ APPLE_BUNDLE_ID: 'com.example.app' })).toEqual([
      'APPLE_ENVIRONMENT',
      'APPLE_PRODUCTS',
    ]);
    expect(problemsOf({ APPLE_ROOT_CERTS: '/nonexistent/AppleRootCA-G3.cer' })).toEqual(['APPLE_ROOT_CERTS']);
    expect(problemsOf({ APPLE_PRODUCTS: 'com.example.week=week:1' })).toEqual(['APPLE_PRODUCTS']);
    expect(problemsOf({ APPLE_PRODUCTS: 'com.example.month=month:0' })).toEqual(['APPLE_PRODUCTS']);
    expect(problemsOf({ APPLE_KEY_ID: 'ABC123' })).toEqual([
      'APPLE_BUNDLE_ID',
      'APPLE_ISSUER_ID',
      'APPLE_PRIVATE_KEY_PATH',
    ]);

    const apple = loadConfig({
      APPLE_BUNDLE_ID: 'com.example.app',
      APPLE_ENVIRONMENT: 'Production',
      APPLE_APP_ID: '1234567890',
      APPLE_ROOT_CERTS: `${chain.rootPath}, ${chain.rootPemPath}`,
      APPLE_PRODUCTS: 'com.example.month.1=month:1, com.example.year.5=year:5',
    }).payments.apple;
    expect(apple).toMatchObject({
      bundleId: 'com.example.app',
      appAppleId: 1234567890,
      environment: 'Production',
      // DER as Apple ships it, and the same certificate saved as PEM: both read as DER.
      rootCertificates: [readFileSync(chain.rootPath), readFileSync(chain.rootPath)],
      products: {
        'com.example.month.1': { period: 'month', connections: 1 },
        'com.example.year.5': { period: 'year', connections: 5 },
      },
      onlineChecks: true,
      api: undefined,
    });
  });

  it('names a root certificate file that is not a certificate', () => {
    expect(problemLines({ APPLE_ROOT_CERTS: `${chain.rootPath},${import.meta.filename}` })).toEqual([
      `APPLE_ROOT_CERTS: ${import.meta.filename} is not a certificate (DER or PEM)`,
    ]);
    expect(problemLines({ APPLE_ROOT_CERTS: chain.dir })).toEqual([
      `APPLE_ROOT_CERTS: ${chain.dir} is not a certificate (DER or PEM)`,
    ]);
  });

  it('refuses APPLE_* keys without APPLE_BUNDLE_ID, which would leave them doing nothing', () => {
    expect(
      problemLines({ APPLE_ENVIRONMENT: 'Sandbox', APPLE_PRODUCTS: 'com.example.month=month:1' }),
    ).toEqual([
      'APPLE_BUNDLE_ID: required with APPLE_ENVIRONMENT, APPLE_PRODUCTS: without it App Store notifications are off (the notify route answers 404)',
    ]);
    // The default of the one key that has one is not a key set.
    expect(problemLines({ APPLE_ONLINE_CHECKS: 'true', APPLE_BUNDLE_ID: '' })).toEqual([]);
  });

  it('refuses a Stripe key of the wrong kind, and test money in production unless it is a staging site', () => {
    const stripe = {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    };
    const publishable = problemLines({ ...stripe, STRIPE_SECRET_KEY: 'pk_live_x' });
    expect(publishable).toHaveLength(1);
    expect(publishable[0]).toMatch(/^STRIPE_SECRET_KEY: .*publishable key \(pk_…\)/);
    expect(problemLines({ ...stripe, STRIPE_SECRET_KEY: 'rk_live_x' })).toEqual([]);
    expect(problemLines({ ...stripe, STRIPE_WEBHOOK_SECRET: 'sk_live_x' })).toEqual([
      "STRIPE_WEBHOOK_SECRET: expected the webhook endpoint's signing secret (whsec_…)",
    ]);

    const production = {
      ...stripe,
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://www.example.com',
      SUBSCRIPTION_KEY,
    };
    expect(problemLines(production)).toEqual([]);
    for (const key of ['sk_test_x', 'rk_test_x']) {
      const lines = problemLines({ ...production, STRIPE_SECRET_KEY: key });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^STRIPE_SECRET_KEY: a test-mode key .* SANDBOX_PAYMENTS_IN_PRODUCTION=true/);
      expect(
        problemLines({ ...production, STRIPE_SECRET_KEY: key, SANDBOX_PAYMENTS_IN_PRODUCTION: 'true' }),
      ).toEqual([]);
    }
    expect(problemLines({ ...stripe, STRIPE_SECRET_KEY: 'sk_test_x' })).toEqual([]);
  });

  it('needs a subscription key of 32 characters or more in production, the same on every instance', () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://www.example.com',
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    };
    expect(problemLines(production)).toEqual([
      expect.stringMatching(/^SUBSCRIPTION_KEY: required with NODE_ENV=production/),
    ]);
    expect(problemLines({ ...production, SUBSCRIPTION_KEY: 'too short' })).toHaveLength(1);
    expect(loadConfig({ ...production, SUBSCRIPTION_KEY }).subscriptionKey).toBe(SUBSCRIPTION_KEY);
    expect(loadConfig({}).subscriptionKey).toBeUndefined();
  });

  it('needs PUBLIC_URL in production, and takes the address from each request elsewhere', () => {
    const production = {
      NODE_ENV: 'production',
      SUBSCRIPTION_KEY,
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    };
    const lines = problemLines(production);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^PUBLIC_URL: required with NODE_ENV=production/);
    expect(loadConfig({ ...production, PUBLIC_URL: 'https://www.example.com/' }).payments.publicUrl).toBe(
      'https://www.example.com',
    );
    expect(loadConfig({}).payments.publicUrl).toBeUndefined();
  });

  it('takes an origin of its own for the back office, never the site’s', () => {
    expect(loadConfig({ ADMIN_PUBLIC_URL: 'https://Admin.Example.com:443/' }).adminPublicUrl).toBe(
      'https://admin.example.com',
    );
    expect(loadConfig({}).adminPublicUrl).toBeUndefined();
    expect(problemLines({ ADMIN_PUBLIC_URL: 'https://example.com/admin' })[0]).toMatch(
      /^ADMIN_PUBLIC_URL: expected an origin alone/,
    );
    const clash = { PUBLIC_URL: 'https://example.com', ADMIN_PUBLIC_URL: 'https://EXAMPLE.com:443' };
    expect(problemLines(clash)[0]).toMatch(/^ADMIN_PUBLIC_URL: must be another host than PUBLIC_URL's/);
  });

  it('reads only the database and APPLE_* keys for the history command, with the same Apple rules', () => {
    const apple = {
      APPLE_BUNDLE_ID: 'com.example.app',
      APPLE_ENVIRONMENT: 'Sandbox',
      APPLE_ROOT_CERTS: chain.rootPemPath,
      APPLE_PRODUCTS: 'com.example.month.1=month:1',
    };
    // Keys the server would refuse, which the command does not use.
    const unrelated = { NODE_ENV: 'production', PAYMENT_PROVIDER: 'stripe', SIGNATURE_SECRET: 'short' };
    expect(problemLines({ ...apple, ...unrelated })).not.toEqual([]);
    const config = loadAppleHistoryConfig({ ...apple, ...unrelated, DATA_DIR: 'history-data' });
    expect(config).toMatchObject({
      env: 'production',
      databaseUrl: undefined,
      dataDir: path.resolve('history-data'),
      apple: { bundleId: 'com.example.app', environment: 'Sandbox', products: { 'com.example.month.1': {} } },
    });
    const history = problemLines(
      { APPLE_KEY_ID: 'ABC123', DATABASE_URL: 'mysql://x/y' },
      loadAppleHistoryConfig,
    );
    expect(history.map((line) => line.split(':')[0]).sort()).toEqual([
      'APPLE_BUNDLE_ID',
      'APPLE_ISSUER_ID',
      'APPLE_PRIVATE_KEY_PATH',
      'DATABASE_URL',
    ]);
  });

  it('refuses Apple data that is not signed (LocalTesting, Xcode) in production', () => {
    const production = {
      NODE_ENV: 'production',
      SUBSCRIPTION_KEY,
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      APPLE_BUNDLE_ID: 'com.example.app',
      APPLE_PRODUCTS: 'com.example.month.1=month:1',
    };
    for (const environment of ['LocalTesting', 'Xcode']) {
      expect(() => loadConfig({ ...production, APPLE_ENVIRONMENT: environment })).toThrow(
        /APPLE_ENVIRONMENT: .* not signed by Apple and is refused in production/,
      );
      expect(
        loadConfig({
          APPLE_ENVIRONMENT: environment,
          APPLE_BUNDLE_ID: 'com.example.app',
          APPLE_PRODUCTS: production.APPLE_PRODUCTS,
        }).payments.apple?.environment,
      ).toBe(environment);
    }
    expect(() => loadConfig({ ...production, APPLE_ENVIRONMENT: 'Staging' })).toThrow(/APPLE_ENVIRONMENT/);
  });

  it('reads the trusted-proxy forms', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
  });

  it('treats an empty optional value as unset, and an empty download URL hides the platform', () => {
    const config = loadConfig({ DATABASE_URL: '', SIGNATURE_SECRET: ' ', DOWNLOAD_IOS_URL: '' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.signatureSecret).toBeUndefined();
    expect(config.downloads.map((d) => d.platform)).not.toContain('ios');
  });

  it('refuses a signing secret too short to mean anything', () => {
    expect(() => loadConfig({ SIGNATURE_SECRET: 'short' })).toThrow(/SIGNATURE_SECRET/);
  });

  it('reads the request timeout and the metrics settings, refusing a guessable token or a bad port', () => {
    expect(loadConfig({})).toMatchObject({
      requestTimeoutMs: 30_000,
      metrics: { token: undefined, port: undefined },
    });
    expect(
      loadConfig({ REQUEST_TIMEOUT_MS: '5000', METRICS_TOKEN: 'a-long-enough-token', METRICS_PORT: '9464' }),
    ).toMatchObject({ requestTimeoutMs: 5000, metrics: { token: 'a-long-enough-token', port: 9464 } });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '10' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });

  it('documents every key in .env.example and nothing else', () => {
    const documented = readFileSync(path.join(root, '.env.example'), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.split('=')[0]);
    expect([...documented].sort()).toEqual([...ENV_KEYS].sort());
  });

  it("lists every key in the README's configuration table and nothing else", () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Configuration\n'));
    const rows = section
      .slice(0, section.indexOf('\n## ', 1))
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    const named = (cell = '') => [...cell.matchAll(/`([A-Z_<>]+)`/g)].map((match) => match[1] ?? '');
    // `DOWNLOAD_<PLATFORM>_URL` stands for one key per platform its row names (`WINDOWS`, …).
    const platforms = named(rows.find((cells) => cells[1]?.includes('<PLATFORM>'))?.[3]);
    const documented = rows
      .flatMap((cells) => named(cells[1]))
      .flatMap((key) =>
        key.includes('<PLATFORM>') ? platforms.map((platform) => key.replace('<PLATFORM>', platform)) : [key],
      );
    expect(documented.sort()).toEqual([...ENV_KEYS].sort());
  });

  it('accepts every value written in .env.example', () => {
    const example = Object.fromEntries(
      readFileSync(path.join(root, '.env.example'), 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(() => loadConfig(example)).not.toThrow();
  });
});
