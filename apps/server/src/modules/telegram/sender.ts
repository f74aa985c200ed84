import { GrammyError, type Api } from 'grammy';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { TelegramOutboxRow } from '../../db/schema/index.ts';
import { RETRY_WINDOW_MS, retryDelayMs } from '../mail/queue-policy.ts';
import type { Pacer } from './pacer.ts';
import { dueTelegramMessages, recordTelegramAttempt, recordTelegramSent, unbindChat } from './repository.ts';

/** At most this many messages at Telegram at once (a second's worth at the limit). */
const IN_FLIGHT = 30;
/** Rows read per claim: the due messages of distinct chats, most urgent first. */
const CLAIM = 30;

export interface TelegramRunResult {
  sent: number;
  retried: number;
  failed: number;
  /** Chats that blocked the bot: unbound, their messages cancelled. */
  unbound: number;
}

export interface SenderDeps {
  db: Database;
  api: Api;
  pacer: Pacer;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Asked before each message: false once this instance lost the worker lease or is closing. */
  mayGoOn: () => boolean;
}

const isBlocked = (error: GrammyError) =>
  error.error_code === 403 && /blocked|deactivated|not found|kicked/i.test(error.description);

/**
 * Sends every due message of the Telegram outbox within Telegram's limits (the pacer), the most
 * urgent first: each claim reads the due rows again, so a payment confirmation written during a
 * broadcast goes with the next message. A 429 pauses everything for its `retry_after` and retries the
 * message then; a 403 from a chat that blocked the bot unbinds it quietly; other failures retry with
 * the mail queue's backoff and give up after its window.
 */
export async function sendDueTelegram(deps: SenderDeps): Promise<TelegramRunResult> {
  const { db, api, pacer, log } = deps;
  const now = deps.now ?? (() => new Date());
  const result: TelegramRunResult = { sent: 0, retried: 0, failed: 0, unbound: 0 };
  const inFlight = new Map<string, Promise<void>>();
  // The messages whose attempt ended while the due ones were being read: that read may still see
  // them pending, and must not send them again.
  let endedWhileReading: Set<string> | undefined;

  async function attempt(row: TelegramOutboxRow): Promise<void> {
    try {
      await api.sendMessage(row.chatId, row.text, { link_preview_options: { is_disabled: true } });
      await recordTelegramSent(db, [row.id], now());
      result.sent++;
    } catch (error) {
      await recordFailure(row, error);
    }
  }

  async function recordFailure(row: TelegramOutboxRow, error: unknown): Promise<void> {
    const at = now();
    if (error instanceof GrammyError && error.error_code === 429) {
      const waitMs = (error.parameters.retry_after ?? 1) * 1000;
      pacer.pause(waitMs);
      result.retried++;
      await recordTelegramAttempt(db, row.id, {
        status: 'pending',
        nextAttemptAt: new Date(at.getTime() + waitMs),
        error: error.description,
      });
      return;
    }
    if (error instanceof GrammyError && isBlocked(error)) {
      result.unbound++;
      await unbindChat(db, row.chatId);
      await recordTelegramAttempt(db, row.id, {
        status: 'cancelled',
        nextAttemptAt: at,
        error: error.description,
      });
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    // A refusal of this message (4xx) will not change: give up at once; the rest may pass later.
    const refused = error instanceof GrammyError && error.error_code >= 400 && error.error_code < 500;
    const givenUp = refused || at.getTime() - row.createdAt.getTime() >= RETRY_WINDOW_MS;
    if (givenUp) {
      result.failed++;
      log.error({ telegramMessage: row.id, kind: row.kind, error: message }, 'telegram message given up');
    } else result.retried++;
    await recordTelegramAttempt(db, row.id, {
      status: givenUp ? 'failed' : 'pending',
      nextAttemptAt: new Date(at.getTime() + retryDelayMs(row.attempts + 1)),
      error: message,
    });
  }

  while (deps.mayGoOn()) {
    const ended = new Set<string>();
    endedWhileReading = ended;
    const due = await dueTelegramMessages(db, now(), CLAIM + inFlight.size);
    endedWhileReading = undefined;
    const rows = due.filter((row) => !inFlight.has(row.id) && !ended.has(row.id));
    if (rows.length === 0) {
      if (inFlight.size === 0) break;
      await Promise.race(inFlight.values());
      continue;
    }
    for (const row of rows.slice(0, CLAIM)) {
      if (!deps.mayGoOn()) break;
      while (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight.values());
      await pacer.slot(row.chatId);
      inFlight.set(
        row.id,
        attempt(row).finally(() => {
          inFlight.delete(row.id);
          endedWhileReading?.add(row.id);
        }),
      );
    }
  }
  await Promise.all(inFlight.values());
  return result;
}
