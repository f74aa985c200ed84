/**
 * A call that failed, as both front ends throw it: `code` is the envelope's code (which equals the
 * HTTP status), or 0 when no reply arrived; the message is the server's `msg`, already in the
 * language the call asked for (or the client's own text when there was no envelope); `data` is the
 * refusal's data (ErrorData), whose reason and field are read here.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.data = data;
  }

  /** The refusal's stable reason code, when the server gave one. */
  get reason(): string | undefined {
    return this.text('reason');
  }

  /** The first bad field of a 400, when the server named one. */
  get field(): string | undefined {
    return this.text('field');
  }

  private text(key: 'reason' | 'field'): string | undefined {
    const data = this.data;
    if (typeof data !== 'object' || data === null || !(key in data)) return undefined;
    const value = (data as Record<string, unknown>)[key];
    return typeof value === 'string' ? value : undefined;
  }
}
