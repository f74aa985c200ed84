import { accessSync, constants, readFileSync } from 'node:fs';
import { z } from 'zod';
import { LOG_LEVELS } from './log.ts';

/**
 * The agent's own settings. Each key can come from a JSON file (`--config FILE` or
 * `NODE_AGENT_CONFIG`, keys in lower case: `{ "panel_url": … }`) or from the environment (upper
 * case: `PANEL_URL=…`); the environment wins. Everything is checked once at start, and a bad start
 * lists every bad key.
 */
export const CORES = ['xray', 'v2ray'] as const;
export type CoreName = (typeof CORES)[number];

/** Where each core's binary usually is: Xray's install script, Debian's v2ray package. */
export const DEFAULT_CORE_BIN: Record<CoreName, string> = {
  xray: '/usr/local/bin/xray',
  v2ray: '/usr/bin/v2ray',
};

const text = z.string().trim().min(1);
const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
  .transform((value) => value === true || value === 'true' || value === '1' || value === 'yes');

const readableFile = optionalText.superRefine((file, ctx) => {
  if (file === undefined) return;
  try {
    accessSync(file, constants.R_OK);
  } catch {
    ctx.addIssue({ code: 'custom', message: `cannot read ${file}` });
  }
});

const settingsSchema = z
  .object({
    PANEL_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL of the panel' }),
    NODE_TOKEN: text.min(16, 'must be the node token from the back office (16 characters or more)'),
    CORE: z.enum(CORES, 'must be xray or v2ray').default('xray'),
    CORE_BIN: optionalText,
    STATE_DIR: text.default('/var/lib/skyway-node-agent'),
    API_PORT: z.coerce.number().int().min(1).max(65_535).default(10_085),
    /** The address the core's proxy inbounds listen on. */
    LISTEN: text.default('0.0.0.0'),
    TLS_CERT: readableFile,
    TLS_KEY: readableFile,
    /** REALITY's x25519 private key (Xray's `xray x25519`, base64url without padding). */
    REALITY_PRIVATE_KEY: optionalText.refine(
      (key) => key === undefined || /^[A-Za-z0-9_-]{43}$/.test(key),
      'must be the base64url x25519 private key that `xray x25519` prints',
    ),
    /** Where REALITY forwards what is not ours; the inbound's server name on 443 when unset. */
    REALITY_DEST: optionalText,
    /** Let users reach private and loopback addresses through the node (tests on 127.0.0.1 only). */
    ALLOW_PRIVATE_DESTINATIONS: flag.default(false),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  })
  .superRefine((settings, ctx) => {
    if (Boolean(settings.TLS_CERT) !== Boolean(settings.TLS_KEY)) {
      const missing = settings.TLS_CERT ? 'TLS_KEY' : 'TLS_CERT';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'TLS needs both TLS_CERT and TLS_KEY' });
    }
    if (settings.REALITY_PRIVATE_KEY && settings.CORE !== 'xray') {
      ctx.addIssue({
        code: 'custom',
        path: ['REALITY_PRIVATE_KEY'],
        message: 'REALITY needs CORE=xray (v2ray has no REALITY)',
      });
    }
  });

export type AgentSettings = ReturnType<typeof toAgentConfig>;

function toAgentConfig(settings: z.output<typeof settingsSchema>) {
  return {
    panelUrl: settings.PANEL_URL,
    nodeToken: settings.NODE_TOKEN,
    core: settings.CORE,
    coreBin: settings.CORE_BIN ?? DEFAULT_CORE_BIN[settings.CORE],
    stateDir: settings.STATE_DIR,
    apiPort: settings.API_PORT,
    listen: settings.LISTEN,
    tls:
      settings.TLS_CERT && settings.TLS_KEY
        ? { certificateFile: settings.TLS_CERT, keyFile: settings.TLS_KEY }
        : undefined,
    reality: settings.REALITY_PRIVATE_KEY
      ? { privateKey: settings.REALITY_PRIVATE_KEY, dest: settings.REALITY_DEST }
      : undefined,
    allowPrivateDestinations: settings.ALLOW_PRIVATE_DESTINATIONS,
    logLevel: settings.LOG_LEVEL,
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`bad configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const KEYS = Object.keys(settingsSchema.shape) as (keyof typeof settingsSchema.shape)[];

/** `--config FILE` or `--config=FILE` from the command line, else NODE_AGENT_CONFIG. */
export function configFileFrom(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const index = argv.findIndex((arg) => arg === '--config' || arg.startsWith('--config='));
  if (index === -1) return env.NODE_AGENT_CONFIG || undefined;
  const arg = argv[index] ?? '';
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[index + 1];
}

function readConfigFile(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError([`${file}: ${(error as Error).message}`]);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError([`${file}: must hold one JSON object`]);
  }
  const values: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    const name = key.toUpperCase();
    if ((KEYS as string[]).includes(name)) values[name] = typeof value === 'number' ? String(value) : value;
    else unknown.push(`${file}: unknown key "${key}"`);
  }
  if (unknown.length > 0) throw new ConfigError(unknown);
  return values;
}

/** The agent's settings from the file and the environment, or a ConfigError naming every bad key. */
export function loadAgentConfig(argv: readonly string[], env: NodeJS.ProcessEnv) {
  const file = configFileFrom(argv, env);
  const values: Record<string, unknown> = file ? readConfigFile(file) : {};
  for (const key of KEYS) {
    const value = env[key];
    if (value !== undefined && value !== '') values[key] = value;
  }
  const result = settingsSchema.safeParse(values);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const key = String(issue.path[0] ?? '');
        const where = file ? `${key} (${key.toLowerCase()} in ${file})` : key;
        const missing = values[key] === undefined && issue.code === 'invalid_type';
        return `${where}: ${missing ? 'is required' : issue.message}`;
      }),
    );
  }
  return toAgentConfig(result.data);
}
