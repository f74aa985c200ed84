import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  APIError,
  APIException,
  AppStoreServerAPIClient,
  type NotificationHistoryRequest,
  type NotificationHistoryResponse,
} from '@apple/app-store-server-library';
import type { AppleConfig } from '../../config.ts';
import { type AppleHandler, type AppleOutcome, processAppleNotification } from './apple.ts';
import { AppleNotificationRefused, appleEnvironment } from './apple-verify.ts';

/** What the recovery needs of Apple's client: the notification-history call, page by page. */
export interface NotificationHistorySource {
  getNotificationHistory(
    paginationToken: string | null,
    request: NotificationHistoryRequest,
  ): Promise<NotificationHistoryResponse>;
}

type FetchResponse = Awaited<ReturnType<AppStoreServerAPIClient['makeFetchRequest']>>;

/**
 * Apple's client with its requests sent to another address (APPLE_API_URL: a test server, an
 * egress proxy). The library fixes the address per environment; makeFetchRequest is its one
 * overridable way out, and the fetch built into Node answers with what makeRequest reads of it.
 */
class RedirectedAPIClient extends AppStoreServerAPIClient {
  constructor(
    private readonly baseUrl: string,
    ...args: ConstructorParameters<typeof AppStoreServerAPIClient>
  ) {
    super(...args);
  }

  protected override async makeFetchRequest(
    path: string,
    query: URLSearchParams,
    method: string,
    body: string | Buffer | undefined,
    headers: Record<string, string>,
  ): Promise<FetchResponse> {
    const response = await fetch(`${this.baseUrl}${path}?${query.toString()}`, {
      method,
      body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
      headers,
    });
    return response as unknown as FetchResponse;
  }
}

/** The App Store Server API client of the configuration (its key read from APPLE_PRIVATE_KEY_PATH). */
export function createAppleApiClient(apple: AppleConfig): AppStoreServerAPIClient {
  if (!apple.api) {
    throw new Error(
      'the App Store Server API needs APPLE_ISSUER_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY_PATH',
    );
  }
  const args = [
    readFileSync(apple.api.privateKeyPath, 'utf8'),
    apple.api.keyId,
    apple.api.issuerId,
    apple.bundleId,
    appleEnvironment(apple.environment),
  ] as const;
  return apple.apiUrl ? new RedirectedAPIClient(apple.apiUrl, ...args) : new AppStoreServerAPIClient(...args);
}

export interface RecoverySummary {
  /** Notifications Apple listed in the range. */
  seen: number;
  outcomes: Record<AppleOutcome | 'refused', number>;
}

/**
 * Asks Apple for every notification it sent (or tried to send) in [since, until] and feeds each
 * signedPayload through the notify route's own path: those handled before are duplicates by their
 * notificationUUID and change nothing. One that fails verification is counted and skipped; any other
 * failure stops the run (run it again: what was applied stays applied, once).
 */
export async function recoverAppleNotifications(
  source: NotificationHistorySource,
  handler: AppleHandler,
  range: { since: Date; until: Date; onlyFailures?: boolean },
  now: () => Date = () => new Date(),
): Promise<RecoverySummary> {
  const summary: RecoverySummary = {
    seen: 0,
    outcomes: { applied: 0, unchanged: 0, duplicate: 0, no_account: 0, refused: 0 },
  };
  const request: NotificationHistoryRequest = {
    startDate: range.since.getTime(),
    endDate: range.until.getTime(),
    ...(range.onlyFailures ? { onlyFailures: true } : {}),
  };
  let token: string | null = null;
  do {
    const page: NotificationHistoryResponse = await source.getNotificationHistory(token, request);
    for (const item of page.notificationHistory ?? []) {
      if (!item.signedPayload) continue;
      summary.seen += 1;
      try {
        const result = await processAppleNotification(handler, item.signedPayload, now());
        summary.outcomes[result.outcome] += 1;
      } catch (error) {
        if (!(error instanceof AppleNotificationRefused)) throw error;
        summary.outcomes.refused += 1;
      }
    }
    token = page.hasMore && page.paginationToken ? page.paginationToken : null;
  } while (token);
  return summary;
}

/**
 * Why the command stopped, in words: the library's APIException carries no message of its own, only
 * the HTTP status and Apple's error code and message (a 401 has none: the key was refused).
 */
export function failureReason(error: unknown): string {
  if (error instanceof APIException) {
    const code = error.apiError === null ? '' : ` ${APIError[error.apiError] ?? 'error'} (${error.apiError})`;
    const detail = error.errorMessage ? `: ${error.errorMessage}` : '';
    const hint =
      error.httpStatusCode === 401
        ? ' (the key was refused: check APPLE_ISSUER_ID, APPLE_KEY_ID, APPLE_PRIVATE_KEY_PATH and APPLE_BUNDLE_ID)'
        : '';
    return `the App Store Server API answered HTTP ${error.httpStatusCode}${code}${detail}${hint}`;
  }
  if (!(error instanceof Error)) return String(error);
  // fetch's own message is only "fetch failed": the reason (refused, timed out, …) is its cause.
  return error.cause instanceof Error
    ? `${error.message}: ${error.cause.message}`
    : error.message || error.name;
}

export const HISTORY_USAGE = `usage: npm run apple:history -- [--since TIME] [--until TIME] [--only-failures]
TIME: an ISO 8601 date or time (2026-05-01, 2026-05-01T08:00:00Z) or unix seconds.
Default: the last 24 hours. Apple keeps 180 days of history.`;

function parseTime(value: string, name: string): Date {
  const date = /^\d+$/.test(value) ? new Date(Number(value) * 1000) : new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new Error(`--${name}: "${value}" is not a date, a time or unix seconds`);
  return date;
}

/** The command's arguments: the range to ask Apple about. */
export function parseHistoryArgs(
  argv: string[],
  now: Date,
): { since: Date; until: Date; onlyFailures: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      since: { type: 'string' },
      until: { type: 'string' },
      'only-failures': { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const until = values.until === undefined ? now : parseTime(values.until, 'until');
  const since =
    values.since === undefined
      ? new Date(until.getTime() - 24 * 60 * 60 * 1000)
      : parseTime(values.since, 'since');
  if (since.getTime() >= until.getTime()) throw new Error('--since must be before --until');
  return { since, until, onlyFailures: values['only-failures'] };
}
