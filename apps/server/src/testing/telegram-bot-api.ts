import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenOnLoopback, requestText } from './loopback.ts';

/** A message the bot sent, as the stand-in received it. */
export interface SentMessage {
  chatId: number;
  text: string;
  /** When it arrived, in ms (performance.now()). */
  at: number;
}

export interface TelegramBotApi {
  /** `http://127.0.0.1:<port>`: grammY's `apiRoot`. */
  url: string;
  /** The bot's token: requests under any other get 401. */
  token: string;
  username: string;
  sent: SentMessage[];
  /** The webhook set by setWebhook, or null (then updates wait for getUpdates). */
  webhook: { url: string; secretToken: string | undefined } | null;
  /** A person writes to the bot from chat `chatId`: the update goes to the webhook, or waits for getUpdates. */
  write(chatId: number, text: string): Promise<void>;
  /** This chat blocked the bot: sendMessage to it answers 403. */
  block(chatId: number): void;
  /** The next `times` sendMessage calls answer 429 with `retry_after` seconds. */
  flood(retryAfterSeconds: number, times?: number): void;
  /** The most messages received within any one second, overall (from the `since`th message on). */
  busiestSecond(since?: number): number;
  /** The shortest time between two messages to one chat, in ms (Infinity when none had two). */
  shortestChatGapMs(since?: number): number;
  /** How many getUpdates calls were answered (long polling is under way). */
  pollCount(): number;
  close(): Promise<void>;
}

type Params = Record<string, unknown>;

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const refusal = (code: number, description: string, parameters?: Params) => ({
  ok: false,
  error_code: code,
  description,
  ...(parameters ? { parameters } : {}),
});

/**
 * A stand-in for Telegram's Bot API on 127.0.0.1, speaking its wire format: `POST /bot<token>/<method>`
 * with a JSON body, answered `{ ok: true, result }` or `{ ok: false, error_code, description,
 * parameters }`. It knows getMe, getUpdates (long polling, refused while a webhook is set, as
 * Telegram does), setWebhook, deleteWebhook and sendMessage (403 for a chat that blocked the bot,
 * 429 with `parameters.retry_after` when asked to flood).
 */
export async function startTelegramBotApi(
  options: { token?: string; username?: string } = {},
): Promise<TelegramBotApi> {
  const token = options.token ?? '123456:AAHtest-telegram-bot-token-0123456789ab';
  const username = options.username ?? 'skyway_test_bot';
  const sent: SentMessage[] = [];
  const blocked = new Set<number>();
  const waiting: Params[] = [];
  let nextUpdateId = 1;
  let floods: { retryAfter: number; times: number } | null = null;
  let polls = 0;
  const pollers = new Set<() => void>();
  const state: { webhook: TelegramBotApi['webhook'] } = { webhook: null };

  function updateOf(chatId: number, text: string): Params {
    const entities = text.startsWith('/')
      ? [{ type: 'bot_command', offset: 0, length: text.split(' ', 1)[0]?.length ?? 0 }]
      : undefined;
    return {
      update_id: nextUpdateId++,
      message: {
        message_id: nextUpdateId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: 'private', first_name: 'Test' },
        from: { id: chatId, is_bot: false, first_name: 'Test' },
        text,
        ...(entities ? { entities } : {}),
      },
    };
  }

  async function getUpdates(params: Params): Promise<Params[]> {
    const offset = Number(params.offset ?? 0);
    const timeout = Math.min(Number(params.timeout ?? 0), 2);
    const due = () => waiting.filter((update) => Number(update.update_id) >= offset);
    if (due().length === 0 && timeout > 0) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          pollers.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, timeout * 1000);
        pollers.add(wake);
      });
    }
    // Updates before the offset are confirmed: Telegram forgets them.
    for (let i = waiting.length - 1; i >= 0; i--)
      if (Number(waiting[i]?.update_id) < offset) waiting.splice(i, 1);
    polls++;
    return due();
  }

  function sendMessage(params: Params): { status: number; body: unknown } {
    const chatId = Number(params.chat_id);
    if (typeof params.text !== 'string' || params.text === '')
      return { status: 400, body: refusal(400, 'Bad Request: message text is empty') };
    if (floods && floods.times > 0) {
      floods.times--;
      const retryAfter = floods.retryAfter;
      return {
        status: 429,
        body: refusal(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter }),
      };
    }
    if (blocked.has(chatId))
      return { status: 403, body: refusal(403, 'Forbidden: bot was blocked by the user') };
    sent.push({ chatId, text: params.text, at: performance.now() });
    return {
      status: 200,
      body: {
        ok: true,
        result: {
          message_id: sent.length,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: 'private' },
          text: params.text,
        },
      },
    };
  }

  const server = createServer((request, response) => {
    void (async () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url?.split('?')[0] ?? '');
      if (!match) return answer(response, 404, refusal(404, 'Not Found'));
      if (match[1] !== token) return answer(response, 401, refusal(401, 'Unauthorized'));
      const body = await requestText(request);
      const params = (body ? JSON.parse(body) : {}) as Params;
      switch (match[2]) {
        case 'getMe':
          return answer(response, 200, {
            ok: true,
            result: { id: Number(token.split(':')[0]), is_bot: true, first_name: 'Skyway', username },
          });
        case 'getUpdates':
          if (state.webhook)
            return answer(
              response,
              409,
              refusal(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
              ),
            );
          return answer(response, 200, { ok: true, result: await getUpdates(params) });
        case 'setWebhook':
          state.webhook = {
            url: String(params.url),
            secretToken: typeof params.secret_token === 'string' ? params.secret_token : undefined,
          };
          return answer(response, 200, { ok: true, result: true, description: 'Webhook was set' });
        case 'deleteWebhook':
          state.webhook = null;
          return answer(response, 200, { ok: true, result: true, description: 'Webhook was deleted' });
        case 'sendMessage': {
          const { status, body: reply } = sendMessage(params);
          return answer(response, status, reply);
        }
        default:
          return answer(response, 404, refusal(404, 'Not Found: method not found'));
      }
    })().catch((error: unknown) => answer(response, 500, refusal(500, String(error))));
  });
  await listenOnLoopback(server, 0);
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    username,
    sent,
    get webhook() {
      return state.webhook;
    },
    async write(chatId, text) {
      const update = updateOf(chatId, text);
      const webhook = state.webhook;
      if (!webhook) {
        waiting.push(update);
        for (const wake of [...pollers]) wake();
        return;
      }
      await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(webhook.secretToken ? { 'x-telegram-bot-api-secret-token': webhook.secretToken } : {}),
        },
        body: JSON.stringify(update),
      });
    },
    block: (chatId) => blocked.add(chatId),
    flood(retryAfter, times = 1) {
      floods = { retryAfter, times };
    },
    busiestSecond(since = 0) {
      let most = 0;
      let start = since;
      const times = sent.map((message) => message.at);
      for (let end = since; end < times.length; end++) {
        while ((times[end] ?? 0) - (times[start] ?? 0) >= 1000) start++;
        most = Math.max(most, end - start + 1);
      }
      return most;
    },
    shortestChatGapMs(since = 0) {
      const last = new Map<number, number>();
      let shortest = Infinity;
      for (const message of sent.slice(since)) {
        const previous = last.get(message.chatId);
        if (previous !== undefined) shortest = Math.min(shortest, message.at - previous);
        last.set(message.chatId, message.at);
      }
      return shortest;
    },
    pollCount: () => polls,
    close: () =>
      new Promise<void>((resolve) => {
        for (const wake of [...pollers]) wake();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
