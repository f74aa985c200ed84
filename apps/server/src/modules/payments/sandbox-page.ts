import { formatYuan } from '@skyway/shared/plans';
import { HTML_LANG, type Language } from '@skyway/shared/languages';
import type { OrderRow } from '../../db/schema/index.ts';
import { escapeHtml } from '../../lib/html.ts';

const TEXT: Record<
  Language,
  {
    title: string;
    notice: string;
    order: string;
    plan: (months: number, connections: number) => string;
    amount: string;
    pay: (amount: string) => string;
    cancel: string;
    paid: string;
    closed: string;
    back: string;
    missing: string;
  }
> = {
  en: {
    title: 'Test payment',
    notice:
      'Test mode: this checkout takes no money. It stands in for a real payment provider so that the site can be tried out.',
    order: 'Order',
    plan: (months, connections) =>
      `${months} ${months === 1 ? 'month' : 'months'} × ${connections} ${connections === 1 ? 'connection' : 'connections'}`,
    amount: 'Amount',
    pay: (amount) => `Pay ${amount}`,
    cancel: 'Cancel',
    paid: 'This order is paid.',
    closed: 'This order can no longer be paid.',
    back: 'Back to the site',
    missing: 'There is no such checkout.',
  },
  zh: {
    title: '测试支付',
    notice: '测试模式：此收银台不会扣款，仅在没有接入真实支付服务时用于试用本站。',
    order: '订单',
    plan: (months, connections) => `${months} 个月 × ${connections} 个连接`,
    amount: '金额',
    pay: (amount) => `支付 ${amount}`,
    cancel: '取消',
    paid: '该订单已支付。',
    closed: '该订单已无法支付。',
    back: '返回网站',
    missing: '收银台不存在。',
  },
  tw: {
    title: '測試付款',
    notice: '測試模式：此結帳頁不會扣款，僅在沒有接入真實付款服務時用於試用本站。',
    order: '訂單',
    plan: (months, connections) => `${months} 個月 × ${connections} 個連線`,
    amount: '金額',
    pay: (amount) => `付款 ${amount}`,
    cancel: '取消',
    paid: '此訂單已付款。',
    closed: '此訂單已無法付款。',
    back: '返回網站',
    missing: '結帳頁不存在。',
  },
};

const STYLE = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",sans-serif;background:#f1f5f9;color:#0f172a}
main{max-width:440px;margin:48px auto;padding:0 16px}
.notice{background:#fef3c7;border:2px dashed #b45309;color:#78350f;padding:12px 16px;border-radius:8px;font-weight:600}
.card{background:#fff;border-radius:12px;padding:24px;margin-top:16px;box-shadow:0 1px 3px rgba(15,23,42,.15)}
h1{font-size:24px;margin:0 0 16px}dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;margin:0 0 24px}
dt{color:#475569}dd{margin:0;font-weight:600}.actions{display:flex;gap:12px}
button,a.button{flex:1;font:inherit;font-size:16px;padding:12px;border-radius:8px;text-align:center;cursor:pointer;text-decoration:none}
button{background:#1d4ed8;color:#fff;border:0}a.button{background:#fff;color:#1e293b;border:1px solid #94a3b8}`;

function page(language: Language, body: string): string {
  const text = TEXT[language];
  return (
    `<!doctype html><html lang="${HTML_LANG[language]}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">` +
    `<link rel="icon" href="/favicon.svg" type="image/svg+xml">` +
    `<title>${escapeHtml(text.title)}</title><style>${STYLE}</style></head><body><main>` +
    `<p class="notice" role="note">${escapeHtml(text.notice)}</p><div class="card"><h1>${escapeHtml(text.title)}</h1>` +
    `${body}</div></main></body></html>`
  );
}

/** The sandbox's checkout page for an order; `payable` decides whether it offers Pay. */
export function renderSandboxCheckout(
  language: Language,
  view: { order: OrderRow; payable: boolean; payAction: string; returnUrl: string },
): string {
  const text = TEXT[language];
  const { order } = view;
  const amount = formatYuan(order.amount);
  const details =
    `<dl><dt>${escapeHtml(text.order)}</dt><dd>${escapeHtml(order.id)}</dd>` +
    `<dt>${escapeHtml(text.plan(order.months, order.connections))}</dt><dd></dd>` +
    `<dt>${escapeHtml(text.amount)}</dt><dd>${escapeHtml(amount)}</dd></dl>`;
  const back = `<a class="button" href="${escapeHtml(view.returnUrl)}">`;
  if (!view.payable) {
    const state = order.status === 'paid' ? text.paid : text.closed;
    return page(
      language,
      `${details}<p>${escapeHtml(state)}</p><div class="actions">${back}${escapeHtml(text.back)}</a></div>`,
    );
  }
  return page(
    language,
    `${details}<form class="actions" method="post" action="${escapeHtml(view.payAction)}">` +
      `<button type="submit">${escapeHtml(text.pay(amount))}</button>${back}${escapeHtml(text.cancel)}</a></form>`,
  );
}

export function renderSandboxMissing(language: Language): string {
  return page(language, `<p>${escapeHtml(TEXT[language].missing)}</p>`);
}
