import type { FastifyInstance, FastifyReply } from 'fastify';
import { isLanguage, type Language } from '@skyway/shared/languages';
import type { Database } from '../../db/client.ts';
import { escapeHtml } from '../../lib/html.ts';
import { plainPage } from '../../lib/plain-page.ts';
import { requestLanguage } from '../../http/language.ts';
import { accountLanguage, optOut } from './repository.ts';
import { accountOfUnsubscribeToken } from './tokens.ts';

type Text = 'title' | 'ask' | 'button' | 'done' | 'invalid';

const TEXTS: Record<Language, Record<Text, string>> = {
  en: {
    title: 'Unsubscribe',
    ask: 'Stop expiry reminders and notices from {site} by e-mail? Mail about your account itself (codes, changes to it) still arrives.',
    button: 'Unsubscribe',
    done: 'You are unsubscribed: {site} sends you no more reminders or notices by e-mail.',
    invalid: 'This unsubscribe link is not valid.',
  },
  zh: {
    title: '退订',
    ask: '不再接收 {site} 的到期提醒和公告邮件？与账号本身有关的邮件（验证码、账号变更）仍会照常发送。',
    button: '退订',
    done: '退订成功：{site} 将不再向您发送提醒和公告邮件。',
    invalid: '此退订链接无效。',
  },
  tw: {
    title: '取消訂閱',
    ask: '不再接收 {site} 的到期提醒和公告郵件？與帳號本身有關的郵件（驗證碼、帳號變更）仍會照常寄送。',
    button: '取消訂閱',
    done: '已取消訂閱：{site} 將不再寄送提醒和公告郵件給您。',
    invalid: '此取消訂閱連結無效。',
  },
};

/**
 * The link in every reminder and notice (and their `List-Unsubscribe`): without signing in, a page
 * that asks, and a POST that unsubscribes, which is also what a mail client's one-click unsubscribe
 * sends (RFC 8058, body `List-Unsubscribe=One-Click`). A token works for its own account only.
 */
export async function unsubscribeRoutes(
  app: FastifyInstance,
  options: { db: Database; subscriptionKey: string; siteName: string },
): Promise<void> {
  const { db, subscriptionKey, siteName } = options;

  const page = (reply: FastifyReply, language: Language, status: number, body: string) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(plainPage({ language, title: `${siteName} · ${TEXTS[language].title}`, body }));

  const say = (language: Language, text: Text) =>
    `<p>${escapeHtml(TEXTS[language][text].replace('{site}', siteName))}</p>`;

  /** The token's account and its language; the caller's language when the token is no account's. */
  async function account(token: string, fallback: Language) {
    const userId = accountOfUnsubscribeToken(subscriptionKey, token);
    const language = userId ? await accountLanguage(db, userId) : undefined;
    if (!userId || language === undefined) return { userId: undefined, language: fallback };
    return { userId, language: isLanguage(language) ? language : fallback };
  }

  app.get<{ Params: { token: string } }>('/unsubscribe/:token', async (request, reply) => {
    const { userId, language } = await account(request.params.token, requestLanguage(request));
    if (!userId) return page(reply, language, 404, say(language, 'invalid'));
    return page(
      reply,
      language,
      200,
      `<h1>${escapeHtml(TEXTS[language].title)}</h1>
      ${say(language, 'ask')}
      <form method="post" action="/unsubscribe/${escapeHtml(request.params.token)}">
        <button class="button" type="submit">${escapeHtml(TEXTS[language].button)}</button>
      </form>`,
    );
  });

  // A token longer than the router takes in a parameter (100 characters), or more segments: the
  // link is not valid, never a page of the site.
  app.route({
    method: ['GET', 'POST'],
    url: '/unsubscribe/*',
    handler: (request, reply) => {
      const language = requestLanguage(request);
      return page(reply, language, 404, say(language, 'invalid'));
    },
  });

  app.post<{ Params: { token: string } }>('/unsubscribe/:token', async (request, reply) => {
    const { userId, language } = await account(request.params.token, requestLanguage(request));
    if (!userId) return page(reply, language, 404, say(language, 'invalid'));
    await optOut(db, userId, new Date());
    return page(
      reply,
      language,
      200,
      `<h1>${escapeHtml(TEXTS[language].title)}</h1>${say(language, 'done')}`,
    );
  });
}
