import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, configFileFrom, loadAgentConfig } from './config.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'node-agent-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = 'n0de-t0ken-0123456789';

function problems(argv: string[], env: NodeJS.ProcessEnv): string[] {
  try {
    loadAgentConfig(argv, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('the agent configuration', () => {
  it('reads the environment, with defaults for what is unset', () => {
    const config = loadAgentConfig([], { PANEL_URL: 'https://panel.example.com', NODE_TOKEN: TOKEN });
    expect(config).toMatchObject({
      panelUrl: 'https://panel.example.com',
      nodeToken: TOKEN,
      core: 'xray',
      coreBin: '/usr/local/bin/xray',
      stateDir: '/var/lib/skyway-node-agent',
      apiPort: 10085,
      listen: '0.0.0.0',
      tls: undefined,
      reality: undefined,
      allowPrivateDestinations: false,
    });
    expect(loadAgentConfig([], { PANEL_URL: 'http://p', NODE_TOKEN: TOKEN, CORE: 'v2ray' }).coreBin).toBe(
      '/usr/bin/v2ray',
    );
  });

  it('reads a JSON file named by --config or NODE_AGENT_CONFIG; the environment wins', () => {
    const file = path.join(dir, 'agent.json');
    writeFileSync(
      file,
      JSON.stringify({ panel_url: 'https://a.example', node_token: TOKEN, api_port: 20000, core: 'v2ray' }),
    );
    expect(configFileFrom(['--config', file], {})).toBe(file);
    expect(configFileFrom([`--config=${file}`], {})).toBe(file);
    expect(configFileFrom([], { NODE_AGENT_CONFIG: file })).toBe(file);
    const config = loadAgentConfig(['--config', file], { API_PORT: '20001' });
    expect(config).toMatchObject({ panelUrl: 'https://a.example', apiPort: 20001, core: 'v2ray' });
  });

  it('lists every bad key at once', () => {
    expect(
      problems([], {
        PANEL_URL: 'ftp://panel',
        NODE_TOKEN: 'short',
        CORE: 'sing-box',
        API_PORT: '70000',
        TLS_CERT: path.join(dir, 'missing.pem'),
        LOG_LEVEL: 'loud',
      }),
    ).toEqual([
      'PANEL_URL: must be an http(s) URL of the panel',
      'NODE_TOKEN: must be the node token from the back office (16 characters or more)',
      'CORE: must be xray or v2ray',
      expect.stringMatching(/^API_PORT: /),
      `TLS_CERT: cannot read ${path.join(dir, 'missing.pem')}`,
      expect.stringMatching(/^LOG_LEVEL: /),
    ]);
    expect(problems([], {})).toEqual(['PANEL_URL: is required', 'NODE_TOKEN: is required']);
  });

  it('wants TLS as a pair and REALITY on Xray only', () => {
    const cert = path.join(dir, 'cert.pem');
    writeFileSync(cert, 'not checked here');
    const base = { PANEL_URL: 'https://p.example', NODE_TOKEN: TOKEN };
    expect(problems([], { ...base, TLS_CERT: cert })).toEqual([
      'TLS_KEY: TLS needs both TLS_CERT and TLS_KEY',
    ]);
    const key = 'aGVsbG8taGVsbG8taGVsbG8taGVsbG8taGVsbG8taGU';
    expect(problems([], { ...base, CORE: 'v2ray', REALITY_PRIVATE_KEY: key })).toEqual([
      'REALITY_PRIVATE_KEY: REALITY needs CORE=xray (v2ray has no REALITY)',
    ]);
    expect(problems([], { ...base, REALITY_PRIVATE_KEY: 'not-a-key' })).toEqual([
      'REALITY_PRIVATE_KEY: must be the base64url x25519 private key that `xray x25519` prints',
    ]);
    expect(loadAgentConfig([], { ...base, REALITY_PRIVATE_KEY: key }).reality).toEqual({
      privateKey: key,
      dest: undefined,
    });
  });

  it('names the file in its problems, and refuses keys it does not know', () => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ panel_url: 'nope', node_token: TOKEN, colour: 'blue' }));
    expect(problems(['--config', file], {})).toEqual([`${file}: unknown key "colour"`]);
    writeFileSync(file, JSON.stringify({ panel_url: 'nope', node_token: TOKEN }));
    expect(problems(['--config', file], {})).toEqual([
      `PANEL_URL (panel_url in ${file}): must be an http(s) URL of the panel`,
    ]);
    writeFileSync(file, '{ not json');
    expect(problems(['--config', file], {})[0]).toMatch(new RegExp(`^${file}: `));
  });
});
