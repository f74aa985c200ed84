import QRCode from 'qrcode';
import { importLinks } from '@skyway/shared/import-links';
import type { Language } from '@skyway/shared/languages';
import type { SlotState } from './service.ts';

const TEXTS: Record<Language, Record<'title' | 'intro' | 'copy' | 'inactive', string>> = {
  en: {
    title: 'Your device’s subscription',
    intro: 'Scan the code with your app, or tap the button of the app you use.',
    copy: 'Or copy this link into the app:',
    inactive: 'This link serves no servers at the moment: see the notice your app shows.',
  },
  zh: {
    title: '设备订阅',
    intro: '用应用扫描二维码，或点击您所用应用的按钮一键导入。',
    copy: '或将此链接复制到应用中：',
    inactive: '此链接当前没有可用节点，请查看应用中显示的提示。',
  },
  tw: {
    title: '裝置訂閱',
    intro: '用應用程式掃描 QR 碼，或點擊您所用應用程式的按鈕一鍵匯入。',
    copy: '或將此連結複製到應用程式中：',
    inactive: '此連結目前沒有可用節點，請查看應用程式中顯示的提示。',
  },
};

const HTML_LANG: Record<Language, string> = { en: 'en', zh: 'zh-CN', tw: 'zh-TW' };

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * What a browser that opens a link gets: the link as a QR code and one-tap import buttons, in the
 * customer's language. No script: the page's policy allows none.
 */
export async function subscriptionPage(options: {
  url: string;
  title: string;
  language: Language;
  state: SlotState;
}): Promise<string> {
  const texts = TEXTS[options.language];
  const qr = await QRCode.toDataURL(options.url, { margin: 1, width: 240 });
  const buttons = importLinks(options.url, options.title)
    .map(({ app, href }) => `<a class="button" href="${escape(href)}">${escape(app)}</a>`)
    .join('\n      ');
  return `<!doctype html>
<html lang="${HTML_LANG[options.language]}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <title>${escape(options.title)} · ${escape(texts.title)}</title>
    <style>
      body { font-family: system-ui, sans-serif; margin: 0; padding: 24px; background: #f5f5f5; color: #1f1f1f; }
      main { max-width: 400px; margin: 0 auto; background: #fff; border-radius: 12px; padding: 24px; text-align: center; }
      img { width: 240px; height: 240px; }
      .button { display: block; margin: 8px 0; padding: 10px; border-radius: 8px; background: #1677ff; color: #fff; text-decoration: none; }
      code { display: block; word-break: break-all; background: #f0f0f0; padding: 8px; border-radius: 6px; font-size: 12px; }
      .notice { color: #d4380d; }
    </style>
  </head>
  <body>
    <main>
      <h1>${escape(texts.title)}</h1>
      ${options.state === 'active' ? '' : `<p class="notice" data-state="${options.state}">${escape(texts.inactive)}</p>`}
      <p>${escape(texts.intro)}</p>
      <img src="${qr}" alt="QR" />
      ${buttons}
      <p>${escape(texts.copy)}</p>
      <code>${escape(options.url)}</code>
    </main>
  </body>
</html>
`;
}
