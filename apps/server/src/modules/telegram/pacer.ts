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
 * Spaces messages `1000 / perSecond` ms apart (a little more) on an even timeline, and two to one
 * chat at least a second apart. A timer that fires late does not push the timeline back: the
 * messages after it catch up, so a busy machine still sends at the limit's rate. What keeps the
 * limit then is a window: a message never leaves within a second (a little more) of the one
 * `perSecond` messages before it. It runs in the one instance that holds the bot's worker lease, so
 * the limits hold across instances.
 */
export function createPacer(
  perSecond: number,
  clock: () => number = () => performance.now(),
  wait: (ms: number) => Promise<unknown> = delay,
): Pacer {
  const interval = (1000 / perSecond) * OVERALL_MARGIN;
  const window = 1000 * OVERALL_MARGIN;
  const lastToChat = new Map<number, number>();
  // When the latest `perSecond` messages left, oldest first.
  const recent: number[] = [];
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
      const windowOpens = recent.length === perSecond ? (recent[0] as number) + window : -Infinity;
      const at = Math.max(
        now,
        nextAt,
        pausedUntil,
        windowOpens,
        (lastToChat.get(chatId) ?? -Infinity) + PER_CHAT_MS,
      );
      nextAt = at + interval;
      if (at > now) await wait(at - now);
      const sentAt = clock();
      recent.push(sentAt);
      if (recent.length > perSecond) recent.shift();
      lastToChat.set(chatId, sentAt);
    },
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, clock() + ms);
      nextAt = Math.max(nextAt, pausedUntil);
    },
  };
}
