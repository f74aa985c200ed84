import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ENV_KEYS, loadConfig } from './config.ts';

const root = path.resolve(import.meta.dirname, '../../..');

describe('config', () => {
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
    const allowed = loadConfig({ NODE_ENV: 'production', SANDBOX_PAYMENTS_IN_PRODUCTION: 'true' });
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
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_PAYMENT_METHODS: 'card, alipay,wechat_pay',
    });
    expect(stripe.payments.stripe.methods).toEqual(['card', 'alipay', 'wechat_pay']);
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
    expect(problemsOf({ APPLE_KEY_ID: 'ABC123' })).toEqual(['APPLE_ISSUER_ID', 'APPLE_PRIVATE_KEY_PATH']);

    const apple = loadConfig({
      APPLE_BUNDLE_ID: 'com.example.app',
      APPLE_ENVIRONMENT: 'Production',
      APPLE_APP_ID: '1234567890',
      APPLE_ROOT_CERTS: `${import.meta.filename}, ${import.meta.filename}`,
      APPLE_PRODUCTS: 'com.example.month.1=month:1, com.example.year.5=year:5',
    }).payments.apple;
    expect(apple).toMatchObject({
      bundleId: 'com.example.app',
      appAppleId: 1234567890,
      environment: 'Production',
      rootCertPaths: [import.meta.filename, import.meta.filename],
      products: {
        'com.example.month.1': { period: 'month', connections: 1 },
        'com.example.year.5': { period: 'year', connections: 5 },
      },
      onlineChecks: true,
      api: undefined,
    });
  });

  it('refuses Apple data that is not signed (LocalTesting, Xcode) in production', () => {
    const production = {
      NODE_ENV: 'production',
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

  it('documents every key in .env.example and nothing else', () => {
    const documented = readFileSync(path.join(root, '.env.example'), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.split('=')[0]);
    expect([...documented].sort()).toEqual([...ENV_KEYS].sort());
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
