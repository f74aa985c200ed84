import QRCode from 'qrcode';
import { importLinks } from '@skyway/shared/import-links';
import type { Language } from '@skyway/shared/languages';
import { escapeHtml } from '../../lib/html.ts';
import { plainPage } from '../../lib/plain-page.ts';
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
    .map(({ app, href }) => `<a class="button" href="${escapeHtml(href)}">${escapeHtml(app)}</a>`)
    .join('\n      ');
  return plainPage({
    language: options.language,
    title: `${options.title} · ${texts.title}`,
    style: `img { width: 240px; height: 240px; }
      code { display: block; word-break: break-all; background: #f0f0f0; padding: 8px; border-radius: 6px; font-size: 12px; }
      .notice { color: #d4380d; }`,
    body: `<h1>${escapeHtml(texts.title)}</h1>
      ${options.state === 'active' ? '' : `<p class="notice" data-state="${options.state}">${escapeHtml(texts.inactive)}</p>`}
      <p>${escapeHtml(texts.intro)}</p>
      <img src="${qr}" alt="QR" />
      ${buttons}
      <p>${escapeHtml(texts.copy)}</p>
      <code>${escapeHtml(options.url)}</code>`,
  });
}
