import { DEFAULT_LANGUAGE, type Language, LANGUAGES } from '@skyway/shared/languages';

/** What the bot says, in each of the site's languages. */
interface BotTexts {
  help: string;
  bound: string;
  /** A member of staff bound their alerts. */
  staffBound: string;
  bindRefused: string;
  unbound: string;
  notBound: string;
  status: (facts: { end: string; connections: number; devices: number }) => string;
  noAccess: string;
  test: string;
}

const texts: Record<Language, BotTexts> = {
  en: {
    help:
      'This bot sends your account’s reminders and notices.\n' +
      '/status — your access: end, connections, devices in use\n' +
      '/unbind — stop messages here\n' +
      'To bind, open the Telegram link in your account on the site.',
    bound: 'Your account is bound: its reminders and notices will come here. /status shows your access.',
    staffBound:
      'Bound: your back-office alerts can come here. Choose Telegram under My alerts in the back office.',
    bindRefused:
      'This link is not valid: it was used already or is older than 10 minutes. Make a new one in your account.',
    unbound: 'Unbound: no more messages from your account here.',
    notBound: 'No account is bound to this chat. Open the Telegram link in your account on the site.',
    status: ({ end, connections, devices }) =>
      `Access until: ${end}\nConnections: ${connections}\nDevices in use: ${devices}`,
    noAccess: 'Your account has no access at the moment.',
    test: 'Test message: the bot works.',
  },
  zh: {
    help:
      '本机器人会发送您账户的提醒和通知。\n' +
      '/status — 查看到期时间、连接数、使用中的设备\n' +
      '/unbind — 停止在此接收消息\n' +
      '如需绑定，请在网站的账户页面打开 Telegram 绑定链接。',
    bound: '账户已绑定：提醒和通知将发送到这里。/status 可查看您的服务状态。',
    staffBound: '已绑定：管理后台的告警可发送到这里。请在管理后台的“我的告警”中选择 Telegram。',
    bindRefused: '此链接无效：已被使用或已超过 10 分钟。请在账户页面重新生成。',
    unbound: '已解除绑定：此处将不再收到您账户的消息。',
    notBound: '此聊天尚未绑定账户。请在网站的账户页面打开 Telegram 绑定链接。',
    status: ({ end, connections, devices }) =>
      `到期时间：${end}\n连接数：${connections}\n使用中的设备：${devices}`,
    noAccess: '您的账户目前没有可用的服务。',
    test: '测试消息：机器人工作正常。',
  },
  tw: {
    help:
      '本機器人會傳送您帳戶的提醒和通知。\n' +
      '/status — 查看到期時間、連線數、使用中的裝置\n' +
      '/unbind — 停止在此接收訊息\n' +
      '如需綁定，請在網站的帳戶頁面開啟 Telegram 綁定連結。',
    bound: '帳戶已綁定：提醒和通知將傳送到這裡。/status 可查看您的服務狀態。',
    staffBound: '已綁定：管理後台的警示可傳送到這裡。請在管理後台的「我的警示」中選擇 Telegram。',
    bindRefused: '此連結無效：已被使用或已超過 10 分鐘。請在帳戶頁面重新產生。',
    unbound: '已解除綁定：此處將不再收到您帳戶的訊息。',
    notBound: '此聊天尚未綁定帳戶。請在網站的帳戶頁面開啟 Telegram 綁定連結。',
    status: ({ end, connections, devices }) =>
      `到期時間：${end}\n連線數：${connections}\n使用中的裝置：${devices}`,
    noAccess: '您的帳戶目前沒有可用的服務。',
    test: '測試訊息：機器人運作正常。',
  },
};

/** The bot's texts in an account's language (a language the site does not have: English). */
export function botTexts(language: string | undefined): BotTexts {
  const known = LANGUAGES.find((each) => each === language);
  return texts[known ?? DEFAULT_LANGUAGE];
}

/**
 * The bot's texts for a chat with no account: Telegram's language code of the person writing
 * (`zh-hans`, `zh-hant`, `zh-TW`, `en`…).
 */
export function botTextsForTelegramLanguage(code: string | undefined): BotTexts {
  const lower = code?.toLowerCase() ?? '';
  if (/^zh-(hant|tw|hk|mo)/.test(lower)) return texts.tw;
  if (lower.startsWith('zh')) return texts.zh;
  return texts.en;
}
