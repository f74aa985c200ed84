import { HTML_LANG, type Language } from '@skyway/shared/languages';
import { escapeHtml } from '../../lib/html.ts';
import { renderMarkdown } from '../../lib/markdown.ts';

export type MailTemplate =
  | 'code_register'
  | 'code_forget'
  | 'code_email'
  | 'account_exists'
  | 'password_changed'
  | 'email_changed'
  | 'inactive_warning'
  | 'staff_invite'
  | 'staff_alert'
  | 'staff_digest'
  | 'expiry_reminder'
  | 'expiry_ended'
  | 'notice'
  | 'ticket_reply'
  | 'payment_confirmed';

export type MailParams = Record<string, string | number>;

/**
 * A paragraph; a value set apart (the code) so that it is easy to read and to copy; or a param that
 * holds Markdown (a notice's body): as written in the text part, rendered safely in the HTML part.
 */
export type MailBlock = string | { highlight: string } | { markdown: string };

export interface TemplateText {
  subject: string;
  body: readonly MailBlock[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** What every message names, whatever its template. */
export interface SiteIdentity {
  siteName: string;
  supportEmail: string;
}

/** The params each template needs from its caller; `site_name` and `support_email` come from the site. */
export const TEMPLATE_PARAMS: Record<MailTemplate, readonly string[]> = {
  code_register: ['code', 'minutes'],
  code_forget: ['code', 'minutes'],
  code_email: ['code', 'minutes'],
  account_exists: [],
  password_changed: [],
  email_changed: ['new_email'],
  inactive_warning: ['revoke_date'],
  staff_invite: ['role', 'link', 'hours'],
  staff_alert: ['title', 'detail', 'link'],
  staff_digest: ['date', 'summary', 'link'],
  expiry_reminder: ['expire_time', 'plan', 'connections', 'buy_link', 'unsubscribe_link'],
  expiry_ended: ['expire_time', 'plan', 'connections', 'buy_link', 'unsubscribe_link'],
  notice: ['title', 'body', 'unsubscribe_link'],
  ticket_reply: ['subject', 'reply', 'link'],
  payment_confirmed: ['order_id', 'plan', 'connections', 'amount', 'expire_time', 'orders_link'],
};

const FOOTER: Record<Language, string> = {
  en: '{site_name} · Questions? Write to {support_email}.',
  zh: '{site_name} · 如有疑问，请联系 {support_email}。',
  tw: '{site_name} · 如有疑問，請聯絡 {support_email}。',
};

const CODE = { highlight: '{code}' };

/** Every template in every language: a test renders each one, so a gap fails the suite. */
export const TEMPLATES: Record<MailTemplate, Record<Language, TemplateText>> = {
  code_register: {
    en: {
      subject: 'Your {site_name} registration code',
      body: [
        'Use this code to finish creating your {site_name} account:',
        CODE,
        'It expires in {minutes} minutes and works once. If you did not ask for it, ignore this e-mail: no account is created without the code.',
      ],
    },
    zh: {
      subject: '{site_name} 注册验证码',
      body: [
        '您正在注册 {site_name} 账号，验证码为：',
        CODE,
        '验证码 {minutes} 分钟内有效，仅可使用一次。如果不是您本人操作，请忽略本邮件：没有验证码无法注册账号。',
      ],
    },
    tw: {
      subject: '{site_name} 註冊驗證碼',
      body: [
        '您正在註冊 {site_name} 帳號，驗證碼為：',
        CODE,
        '驗證碼 {minutes} 分鐘內有效，僅可使用一次。若非您本人操作，請忽略此電子郵件：沒有驗證碼無法註冊帳號。',
      ],
    },
  },
  code_forget: {
    en: {
      subject: 'Your {site_name} password reset code',
      body: [
        'Use this code to set a new password for your {site_name} account:',
        CODE,
        'It expires in {minutes} minutes and works once. If you did not ask to reset your password, ignore this e-mail: your password stays as it is.',
      ],
    },
    zh: {
      subject: '{site_name} 重置密码验证码',
      body: [
        '您正在重置 {site_name} 账号的密码，验证码为：',
        CODE,
        '验证码 {minutes} 分钟内有效，仅可使用一次。如果不是您本人操作，请忽略本邮件，您的密码不会改变。',
      ],
    },
    tw: {
      subject: '{site_name} 重設密碼驗證碼',
      body: [
        '您正在重設 {site_name} 帳號的密碼，驗證碼為：',
        CODE,
        '驗證碼 {minutes} 分鐘內有效，僅可使用一次。若非您本人操作，請忽略此電子郵件，您的密碼不會變更。',
      ],
    },
  },
  code_email: {
    en: {
      subject: 'Confirm your new {site_name} e-mail address',
      body: [
        'Use this code to make this address the e-mail of your {site_name} account:',
        CODE,
        'It expires in {minutes} minutes and works once. If you did not ask for it, ignore this e-mail.',
      ],
    },
    zh: {
      subject: '{site_name} 更换邮箱验证码',
      body: [
        '您正在将此邮箱设为 {site_name} 账号的邮箱，验证码为：',
        CODE,
        '验证码 {minutes} 分钟内有效，仅可使用一次。如果不是您本人操作，请忽略本邮件。',
      ],
    },
    tw: {
      subject: '{site_name} 變更電子郵件驗證碼',
      body: [
        '您正在將此電子郵件地址設為 {site_name} 帳號的電子郵件，驗證碼為：',
        CODE,
        '驗證碼 {minutes} 分鐘內有效，僅可使用一次。若非您本人操作，請忽略此電子郵件。',
      ],
    },
  },
  account_exists: {
    en: {
      subject: 'You already have a {site_name} account',
      body: [
        'Someone, probably you, asked for a {site_name} registration code for this address, but it already has an account.',
        'Sign in with your password, or choose “Forgot password” on the sign-in page to set a new one.',
        'If it wasn’t you, you can ignore this e-mail: nothing has changed.',
      ],
    },
    zh: {
      subject: '您已有 {site_name} 账号',
      body: [
        '有人（可能是您）使用此邮箱申请注册 {site_name}，但此邮箱已有账号。',
        '请直接使用密码登录；如果忘记密码，可在登录页点击“忘记密码”重新设置。',
        '如果不是您本人操作，请忽略本邮件，您的账号没有任何变化。',
      ],
    },
    tw: {
      subject: '您已有 {site_name} 帳號',
      body: [
        '有人（可能是您）使用此電子郵件地址申請註冊 {site_name}，但此地址已有帳號。',
        '請直接使用密碼登入；若忘記密碼，可在登入頁點選「忘記密碼」重新設定。',
        '若非您本人操作，請忽略此電子郵件，您的帳號沒有任何變更。',
      ],
    },
  },
  password_changed: {
    en: {
      subject: 'Your {site_name} password was changed',
      body: [
        'The password of your {site_name} account has just been changed.',
        'If you did this, there is nothing more to do.',
        'If it wasn’t you, contact us at once at {support_email}.',
      ],
    },
    zh: {
      subject: '{site_name} 账号密码已修改',
      body: [
        '您的 {site_name} 账号密码刚刚被修改。',
        '如果是您本人操作，无需任何处理。',
        '如果不是您本人操作，请立即联系 {support_email}。',
      ],
    },
    tw: {
      subject: '{site_name} 帳號密碼已變更',
      body: [
        '您的 {site_name} 帳號密碼剛剛被變更。',
        '若是您本人操作，無需任何處理。',
        '若非您本人操作，請立即聯絡 {support_email}。',
      ],
    },
  },
  email_changed: {
    en: {
      subject: 'Your {site_name} e-mail address was changed',
      body: [
        'The e-mail address of your {site_name} account has been changed to {new_email}.',
        'From now on, sign in with the new address; this address no longer receives mail about the account.',
        'If it wasn’t you, contact us at once at {support_email}.',
      ],
    },
    zh: {
      subject: '{site_name} 账号邮箱已更换',
      body: [
        '您的 {site_name} 账号邮箱已更换为 {new_email}。',
        '今后请使用新邮箱登录，此邮箱将不再收到该账号的邮件。',
        '如果不是您本人操作，请立即联系 {support_email}。',
      ],
    },
    tw: {
      subject: '{site_name} 帳號電子郵件已變更',
      body: [
        '您的 {site_name} 帳號電子郵件已變更為 {new_email}。',
        '今後請使用新的電子郵件地址登入，此地址將不再收到此帳號的郵件。',
        '若非您本人操作，請立即聯絡 {support_email}。',
      ],
    },
  },
  inactive_warning: {
    en: {
      subject: 'Your {site_name} account will be closed on {revoke_date}',
      body: [
        'Nobody has signed in to your {site_name} account for three months, and it has no active subscription.',
        'It will be closed on {revoke_date} unless you sign in before then; signing in once keeps it. A closed account can no longer sign in.',
        'If you no longer need the account, you don’t need to do anything.',
      ],
    },
    zh: {
      subject: '您的 {site_name} 账号将于 {revoke_date} 停用',
      body: [
        '您的 {site_name} 账号已有三个月未登录，且没有有效的订阅。',
        '如果您在 {revoke_date} 之前没有登录，账号将被停用，之后无法再登录；只需登录一次即可保留账号。',
        '如果您不再需要该账号，无需任何操作。',
      ],
    },
    tw: {
      subject: '您的 {site_name} 帳號將於 {revoke_date} 停用',
      body: [
        '您的 {site_name} 帳號已有三個月未登入，且沒有有效的訂閱。',
        '若您在 {revoke_date} 之前未登入，帳號將被停用，之後無法再登入；只需登入一次即可保留帳號。',
        '若您不再需要此帳號，無需任何操作。',
      ],
    },
  },
  staff_alert: {
    en: {
      subject: '{site_name} alert: {title}',
      body: ['{title}', '{detail}', 'In the back office: {link}'],
    },
    zh: {
      subject: '{site_name} 告警：{title}',
      body: ['{title}', '{detail}', '在管理后台查看：{link}'],
    },
    tw: {
      subject: '{site_name} 警示：{title}',
      body: ['{title}', '{detail}', '在管理後台查看：{link}'],
    },
  },
  staff_digest: {
    en: {
      subject: '{site_name} daily digest, {date}',
      body: [
        'Your alerts of the 24 hours to 09:00 (UTC+8) on {date}:',
        { markdown: 'summary' },
        'The back office: {link}',
      ],
    },
    zh: {
      subject: '{site_name} 每日告警摘要 {date}',
      body: ['截至 {date} 09:00（UTC+8）的 24 小时内的告警：', { markdown: 'summary' }, '管理后台：{link}'],
    },
    tw: {
      subject: '{site_name} 每日警示摘要 {date}',
      body: ['截至 {date} 09:00（UTC+8）的 24 小時內的警示：', { markdown: 'summary' }, '管理後台：{link}'],
    },
  },
  staff_invite: {
    en: {
      subject: 'You are invited to the {site_name} back office',
      body: [
        'You have been invited to the {site_name} back office as {role}.',
        'Open this link within {hours} hours to set your password and your authenticator app:',
        '{link}',
        'The link works once. If you did not expect this invitation, ignore this message.',
      ],
    },
    zh: {
      subject: '邀请您加入 {site_name} 管理后台',
      body: [
        '您已被邀请以 {role} 身份加入 {site_name} 管理后台。',
        '请在 {hours} 小时内打开以下链接，设置密码并绑定身份验证器应用：',
        '{link}',
        '该链接只能使用一次。如果您没有预期收到此邀请，请忽略本邮件。',
      ],
    },
    tw: {
      subject: '邀請您加入 {site_name} 管理後台',
      body: [
        '您已被邀請以 {role} 身分加入 {site_name} 管理後台。',
        '請在 {hours} 小時內開啟以下連結，設定密碼並綁定驗證器應用程式：',
        '{link}',
        '此連結只能使用一次。若您並未預期收到此邀請，請忽略本郵件。',
      ],
    },
  },
  expiry_reminder: {
    en: {
      subject: 'Reminder: your {site_name} access ends on {expire_time}',
      body: [
        'Your {site_name} access ({plan}, {connections} connections) ends on {expire_time}.',
        'Renew before then to keep every device connected without a break: {buy_link}',
        'We remind you a few days before your access ends. To stop these reminders, unsubscribe: {unsubscribe_link}',
      ],
    },
    zh: {
      subject: '提醒：您的 {site_name} 服务将于 {expire_time} 到期',
      body: [
        '您的 {site_name} 服务（{plan}，{connections} 个连接数）将于 {expire_time} 到期。',
        '请在到期前续费，所有设备即可不间断使用：{buy_link}',
        '我们会在服务到期前几天提醒您。如不想再收到此类提醒，请退订：{unsubscribe_link}',
      ],
    },
    tw: {
      subject: '提醒：您的 {site_name} 服務將於 {expire_time} 到期',
      body: [
        '您的 {site_name} 服務（{plan}，{connections} 個連線數）將於 {expire_time} 到期。',
        '請在到期前續費，所有裝置即可不間斷使用：{buy_link}',
        '我們會在服務到期前幾天提醒您。如不想再收到此類提醒，請取消訂閱：{unsubscribe_link}',
      ],
    },
  },
  expiry_ended: {
    en: {
      subject: 'Your {site_name} access has ended',
      body: [
        'Your {site_name} access ({plan}, {connections} connections) ended on {expire_time}, and your devices can no longer connect.',
        'Renew at any time to connect again; your devices and their links stay as they are: {buy_link}',
        'To stop reminders like this one, unsubscribe: {unsubscribe_link}',
      ],
    },
    zh: {
      subject: '您的 {site_name} 服务已到期',
      body: [
        '您的 {site_name} 服务（{plan}，{connections} 个连接数）已于 {expire_time} 到期，设备暂时无法连接。',
        '随时续费即可恢复连接，您的设备和订阅链接保持不变：{buy_link}',
        '如不想再收到此类提醒，请退订：{unsubscribe_link}',
      ],
    },
    tw: {
      subject: '您的 {site_name} 服務已到期',
      body: [
        '您的 {site_name} 服務（{plan}，{connections} 個連線數）已於 {expire_time} 到期，裝置暫時無法連線。',
        '隨時續費即可恢復連線，您的裝置和訂閱連結保持不變：{buy_link}',
        '如不想再收到此類提醒，請取消訂閱：{unsubscribe_link}',
      ],
    },
  },
  notice: {
    en: {
      subject: '{site_name}: {title}',
      body: [
        '{title}',
        { markdown: 'body' },
        'You get notices like this one as a {site_name} customer. To stop them, unsubscribe: {unsubscribe_link}',
      ],
    },
    zh: {
      subject: '【{site_name}】{title}',
      body: [
        '{title}',
        { markdown: 'body' },
        '您是 {site_name} 的用户，因此收到此公告。如不想再收到此类邮件，请退订：{unsubscribe_link}',
      ],
    },
    tw: {
      subject: '【{site_name}】{title}',
      body: [
        '{title}',
        { markdown: 'body' },
        '您是 {site_name} 的用戶，因此收到此公告。如不想再收到此類郵件，請取消訂閱：{unsubscribe_link}',
      ],
    },
  },
  ticket_reply: {
    en: {
      subject: '{site_name} support replied: {subject}',
      body: [
        'Our support team replied to your ticket “{subject}”:',
        '{reply}',
        'Read the whole conversation and answer here: {link}',
      ],
    },
    zh: {
      subject: '【{site_name}】工单有新回复：{subject}',
      body: ['客服已回复您的工单“{subject}”：', '{reply}', '查看完整对话并回复：{link}'],
    },
    tw: {
      subject: '【{site_name}】工單有新回覆：{subject}',
      body: ['客服已回覆您的工單「{subject}」：', '{reply}', '查看完整對話並回覆：{link}'],
    },
  },
  payment_confirmed: {
    en: {
      subject: 'Payment received: your {site_name} access runs to {expire_time}',
      body: [
        'Thank you: we received {amount} for order {order_id} ({plan}, {connections} connections).',
        'Your access now runs to {expire_time}. Your devices and their links stay as they are.',
        'Your orders: {orders_link}',
      ],
    },
    zh: {
      subject: '【{site_name}】支付成功，服务有效期至 {expire_time}',
      body: [
        '感谢您的购买：订单 {order_id}（{plan}，{connections} 个连接数）已收到付款 {amount}。',
        '您的服务现已延长至 {expire_time}，设备和订阅链接保持不变。',
        '查看订单：{orders_link}',
      ],
    },
    tw: {
      subject: '【{site_name}】付款成功，服務有效期至 {expire_time}',
      body: [
        '感謝您的購買：訂單 {order_id}（{plan}，{connections} 個連線數）已收到付款 {amount}。',
        '您的服務現已延長至 {expire_time}，裝置和訂閱連結保持不變。',
        '查看訂單：{orders_link}',
      ],
    },
  },
};

const PLACEHOLDER = /\{(\w+)\}/g;

const asIs = (value: string) => value;

/** One pass, so a value that itself looks like `{x}` is never expanded again. */
function fill(pattern: string, params: MailParams, encode: (value: string) => string): string {
  return encode(pattern).replace(PLACEHOLDER, (_, key: string) => encode(String(params[key])));
}

function requireParams(template: MailTemplate, params: MailParams): void {
  const missing = TEMPLATE_PARAMS[template].filter((key) => params[key] === undefined);
  // A missing param is a programming error: failing loudly beats mailing a user a blank code.
  if (missing.length > 0) throw new Error(`mail template ${template} needs ${missing.join(', ')}`);
}

function renderText(blocks: readonly MailBlock[], footer: string, params: MailParams): string {
  const parts = blocks.map((block) => {
    if (typeof block === 'string') return fill(block, params, asIs);
    if ('markdown' in block) return String(params[block.markdown]);
    return `    ${fill(block.highlight, params, asIs)}`;
  });
  return `${parts.join('\n\n')}\n\n-- \n${fill(footer, params, asIs)}\n`;
}

const PARAGRAPH_STYLE = 'margin:0 0 16px';
const HIGHLIGHT_STYLE =
  'margin:0 0 16px;padding:12px 16px;background:#f0f5ff;border-radius:6px;font-family:Menlo,Consolas,monospace;font-size:28px;font-weight:bold;letter-spacing:6px;text-align:center';

function renderHtml(
  language: Language,
  subject: string,
  blocks: readonly MailBlock[],
  footer: string,
  params: MailParams,
): string {
  const paragraphs = blocks.map((block) => {
    if (typeof block === 'string')
      return `<p style="${PARAGRAPH_STYLE}">${fill(block, params, escapeHtml)}</p>`;
    if ('markdown' in block)
      return `<div style="${PARAGRAPH_STYLE}">${renderMarkdown(String(params[block.markdown]))}</div>`;
    return `<p style="${HIGHLIGHT_STYLE}">${fill(block.highlight, params, escapeHtml)}</p>`;
  });
  return [
    `<!doctype html><html lang="${HTML_LANG[language]}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    "<body style=\"margin:0;padding:24px;background:#f5f5f5;font-family:-apple-system,'Segoe UI','PingFang SC','Microsoft YaHei',sans-serif\">",
    '<div style="max-width:520px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px;color:#222222;font-size:15px;line-height:1.6">',
    ...paragraphs,
    '</div>',
    `<p style="max-width:520px;margin:16px auto 0;color:#888888;font-size:12px;text-align:center">${fill(footer, params, escapeHtml)}</p>`,
    '</body></html>',
  ].join('\n');
}

/** Subject, plain text and HTML of one message; every value is HTML-escaped in the HTML part. */
export function renderMail(
  template: MailTemplate,
  language: Language,
  params: MailParams,
  site: SiteIdentity,
): RenderedMail {
  requireParams(template, params);
  const all: MailParams = { ...params, site_name: site.siteName, support_email: site.supportEmail };
  const { subject: subjectPattern, body } = TEMPLATES[template][language];
  // Header folding is nodemailer's job, but a line break from a param must never start a new header.
  const subject = fill(subjectPattern, all, asIs).replace(/[\r\n]+/g, ' ');
  return {
    subject,
    text: renderText(body, FOOTER[language], all),
    html: renderHtml(language, subject, body, FOOTER[language], all),
  };
}
