/** Spec section 9. */
export const REQUEST_TIMEOUT_MS = 600_000;

export interface HttpReply {
  status: number;
  /** The body parsed as JSON, or its text when it is not JSON (a file asked for: its bytes). */
  body: unknown;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * POSTs `body` as JSON and reads the reply whatever its HTTP status: the api client reads every
 * envelope. With `file`, a successful reply that is not JSON is a file, read as a Blob. Rejects when
 * no reply arrives, or when it has not fully arrived within the timeout.
 */
export async function postJson(
  path: string,
  body: unknown,
  headers: Record<string, string>,
  file = false,
): Promise<HttpReply> {
  const controller = new AbortController();
  // A timer of the page rather than AbortSignal.timeout, so that a test's fake clock can run it out.
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (file && response.ok && !response.headers.get('content-type')?.includes('json')) {
      return { status: response.status, body: await response.blob() };
    }
    return { status: response.status, body: parseBody(await response.text()) };
  } finally {
    clearTimeout(timer);
  }
}
