/**
 * Structured log lines: one JSON object per line (time, level, msg, then the fields), for journald
 * and any log shipper. A field named like one of the first three is dropped rather than hiding them.
 */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds these fields to every line. */
  child(fields: LogFields): Logger;
}

const RESERVED = new Set(['time', 'level', 'msg']);

/** Errors become `{ message, code }` (JSON.stringify would print `{}`). */
function plain(value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return code === undefined ? { message: value.message } : { message: value.message, code };
  }
  return value;
}

export function formatLine(level: LogLevel, msg: string, fields: LogFields, time = new Date()): string {
  const line: LogFields = { time: time.toISOString(), level, msg };
  for (const [key, value] of Object.entries(fields)) {
    if (!RESERVED.has(key) && value !== undefined) line[key] = plain(value);
  }
  return `${JSON.stringify(line)}\n`;
}

export function createLogger(
  options: { level?: LogLevel; write?: (line: string) => void; fields?: LogFields } = {},
): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level ?? 'info');
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const base = options.fields ?? {};
  const at =
    (level: LogLevel) =>
    (msg: string, fields: LogFields = {}) => {
      if (LOG_LEVELS.indexOf(level) >= threshold) write(formatLine(level, msg, { ...base, ...fields }));
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => createLogger({ ...options, fields: { ...base, ...fields } }),
  };
}

/** A logger that keeps its lines in memory: for tests, which read them back. */
export function memoryLogger(): Logger & { lines: () => LogFields[] } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
  return { ...logger, lines: () => lines.map((line) => JSON.parse(line) as LogFields) };
}
