import { setTimeout as delay } from 'node:timers/promises';

/** Telegram's limits: about 30 messages a second overall, 1 a second to one chat. */
export interface Pacer {
  /** Resolves when a message to `chatId` may go, and counts it as gone then. Calls must not overlap. */
  slot(chatId: number): Promise<void>;
  /** Telegram said "retry after": nothing goes for `ms`. */
  pause(ms: number): void;
}

/** A little under the limits: messages leave at even intervals and arrive with some jitter. */
const OVERALL_MARGIN = 1.03;
const PER_CHAT_MS = 1050;

/**
 * Spaces messages `1000 / perSecond` ms apart (a little more), and two to one chat at least a
 * second apart. It runs in the one instance that holds the bot's worker lease, so the limits hold
 * across instances.
 */
export function createPacer(perSecond: number, clock: () => number = () => performance.now()): Pacer {
  const interval = (1000 / perSecond) * OVERALL_MARGIN;
  const lastToChat = new Map<number, number>();
  let nextAt = 0;
  let pausedUntil = 0;

  function forget(now: number): void {
    if (lastToChat.size < 1000) return;
    for (const [chat, at] of lastToChat) if (now - at >= PER_CHAT_MS) lastToChat.delete(chat);
  }

  return {
    async slot(chatId) {
      const now = clock();
      forget(now);
      const at = Math.max(now, nextAt, pausedUntil, (lastToChat.get(chatId) ?? -Infinity) + PER_CHAT_MS);
      nextAt = at + interval;
      lastToChat.set(chatId, at);
      if (at > now) await delay(at - now);
      // A timer that fired late must not let the next message catch up: the spacing counts from now.
      const sentAt = clock();
      nextAt = Math.max(nextAt, sentAt + interval);
      lastToChat.set(chatId, sentAt);
    },
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, clock() + ms);
      nextAt = Math.max(nextAt, pausedUntil);
    },
  };
}
