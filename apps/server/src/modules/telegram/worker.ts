import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { type BotLoader, type LoadedBot, webhookUrl } from './bot.ts';
import { createPacer } from './pacer.ts';
import { findBot, holdWorkerLease, releaseWorkerLease, storeUpdateOffset } from './repository.ts';
import { sendDueTelegram, type TelegramRunResult } from './sender.ts';

/** The lease outlives a few missed renewals: an instance that dies is replaced within it. */
const LEASE_MS = 30_000;
const TICK_MS = 1_000;
/** getUpdates' long-poll wait, in seconds. */
const POLL_TIMEOUT_SECONDS = 10;

export interface TelegramWorkerOptions {
  db: Database;
  loadBot: BotLoader;
  /** The site's public address: a webhook there; none: long polling. */
  publicUrl: string | undefined;
  perSecond: number;
  log: FastifyBaseLogger;
  tickMs?: number;
  /** Told when a sending run ends (alerts and tests). */
  onSent?: (result: TelegramRunResult) => void;
}

export interface TelegramWorker {
  start(): void;
  /** Stops polling and sending, and hands the lease back (shutdown). */
  close(): Promise<void>;
}

/**
 * The bot's worker: on the one instance holding the lease (renewed each tick), it sets the webhook
 * up when the site has a public address and deletes it otherwise, then long-polls — never both —
 * and sends the Telegram outbox within the limits. Instances without the lease only answer webhooks.
 */
export function createTelegramWorker(options: TelegramWorkerOptions): TelegramWorker {
  const { db, loadBot, publicUrl, log } = options;
  const workerId = randomUUID();
  const pacer = createPacer(options.perSecond);
  let holding = false;
  let stopped = false;
  let setUpVersion: string | undefined;
  let sending: Promise<unknown> | undefined;
  let polling: Promise<void> | undefined;
  let ticking: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const abort = new AbortController();
  const goingOn = () => holding && !stopped;

  async function setUp(loaded: LoadedBot): Promise<void> {
    if (setUpVersion === loaded.version) return;
    if (publicUrl) {
      await loaded.bot.api.setWebhook(webhookUrl(publicUrl), {
        secret_token: loaded.secret,
        allowed_updates: ['message'],
      });
    } else {
      await loaded.bot.api.deleteWebhook();
    }
    setUpVersion = loaded.version;
  }

  async function poll(loaded: LoadedBot): Promise<void> {
    let offset = (await findBot(db))?.updateOffset ?? 0;
    while (goingOn() && setUpVersion === loaded.version) {
      const updates = await loaded.bot.api.getUpdates(
        { offset, timeout: POLL_TIMEOUT_SECONDS, allowed_updates: ['message'] },
        // grammY types its signal with the abort-controller package's; the standard one is what it uses.
        abort.signal as unknown as Parameters<LoadedBot['bot']['api']['getUpdates']>[1],
      );
      for (const update of updates) {
        await loaded.bot
          .handleUpdate(update)
          .catch((error: unknown) => log.error({ err: error }, 'telegram update failed'));
        offset = update.update_id + 1;
      }
      if (updates.length > 0) await storeUpdateOffset(db, workerId, offset);
    }
  }

  async function tick(): Promise<void> {
    const now = new Date();
    holding = await holdWorkerLease(db, workerId, now, new Date(now.getTime() + LEASE_MS));
    if (!goingOn()) return;
    const loaded = await loadBot();
    if (!loaded) return;
    await setUp(loaded);
    sending ??= sendDueTelegram({ db, api: loaded.bot.api, pacer, log, mayGoOn: goingOn })
      .then((result) => options.onSent?.(result))
      .catch((error: unknown) => log.error({ err: error }, 'telegram sending failed'))
      .finally(() => (sending = undefined));
    if (!publicUrl)
      polling ??= poll(loaded)
        .catch((error: unknown) => {
          if (!stopped) log.warn({ err: error }, 'telegram polling stopped');
        })
        .finally(() => (polling = undefined));
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      ticking = tick()
        .catch((error: unknown) => log.warn({ err: error }, 'telegram worker tick failed'))
        .finally(schedule);
    }, options.tickMs ?? TICK_MS);
    timer.unref();
  }

  return {
    start: schedule,
    async close() {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
      await Promise.allSettled([ticking, sending, polling]);
      await releaseWorkerLease(db, workerId).catch(() => undefined);
    },
  };
}
