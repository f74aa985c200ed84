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
