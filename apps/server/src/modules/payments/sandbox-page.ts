import { formatYuan } from '@skyway/shared/money';
import { isPayMethod, type PayMethod } from '@skyway/shared/plans';
import { HTML_LANG, type Language } from '@skyway/shared/languages';
import type { OrderRow } from '../../db/schema/index.ts';
import { escapeHtml } from '../../lib/html.ts';

const TEXT: Record<
  Language,
  {
    title: string;
    notice: string;
    order: string;
    planLabel: string;
    plan: (months: number, connections: number) => string;
    amount: string;
    method: string;
    methods: Record<PayMethod, string>;
    /** Each method's Pay button, saying that it is a test. */
    pay: Record<PayMethod, string>;
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
      'Test mode: this page only simulates the payment and takes no money. It stands in for a real payment provider so that the site can be tried out.',
    order: 'Order',
    planLabel: 'Plan',
    plan: (months, connections) =>
      `${months} ${months === 1 ? 'month' : 'months'} × ${connections} ${connections === 1 ? 'connection' : 'connections'}`,
    amount: 'Amount',
    method: 'Payment method',
    methods: { alipay: 'Alipay', wechat_pay: 'WeChat Pay', usdt: 'USDT (TRC20)', card: 'Card' },
    pay: {
      alipay: 'Pay with Alipay (test)',
      wechat_pay: 'Pay with WeChat Pay (test)',
      usdt: 'Pay in USDT (test)',
      card: 'Pay by card (test)',
    },
    cancel: 'Cancel',
    paid: 'This order is paid.',
    closed: 'This order can no longer be paid.',
    back: 'Back to the site',
    missing: 'There is no such checkout.',
  },
  zh: {
    title: '测试支付',
    notice: '测试模式：此页面仅模拟付款，不会扣款，用于在未接入真实支付服务时试用本站。',
    order: '订单',
    planLabel: '套餐',
    plan: (months, connections) => `${months} 个月 × ${connections} 个连接`,
    amount: '金额',
    method: '支付方式',
    methods: { alipay: '支付宝', wechat_pay: '微信支付', usdt: 'USDT（TRC20）', card: '银行卡' },
    pay: {
      alipay: '使用支付宝付款（测试）',
      wechat_pay: '使用微信支付（测试）',
      usdt: '使用 USDT 付款（测试）',
      card: '使用银行卡付款（测试）',
    },
    cancel: '取消',
    paid: '该订单已支付。',
    closed: '该订单已无法支付。',
    back: '返回网站',
    missing: '收银台不存在。',
  },
  tw: {
    title: '測試付款',
    notice: '測試模式：此頁面僅模擬付款，不會扣款，用於在未接入真實付款服務時試用本站。',
    order: '訂單',
    planLabel: '方案',
    plan: (months, connections) => `${months} 個月 × ${connections} 個連線`,
    amount: '金額',
    method: '付款方式',
    methods: { alipay: '支付寶', wechat_pay: '微信支付', usdt: 'USDT（TRC20）', card: '信用卡' },
    pay: {
      alipay: '使用支付寶付款（測試）',
      wechat_pay: '使用微信支付（測試）',
      usdt: '使用 USDT 付款（測試）',
      card: '使用信用卡付款（測試）',
    },
    cancel: '取消',
    paid: '此訂單已付款。',
    closed: '此訂單已無法付款。',
    back: '返回網站',
    missing: '結帳頁不存在。',
  },
};

const markSvg = (shapes: string) =>
  `<svg class="mark" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${shapes}</svg>`;

/**
 * A small mark for each method in its brand colour, drawn inline (the page loads nothing else, and
 * its CSP allows no other origin). Decorative: the method's name stands next to it.
 */
const MARKS: Record<PayMethod, string> = {
  // Alipay blue with the strokes of 支.
  alipay: markSvg(
    '<rect width="24" height="24" rx="5" fill="#1677FF"/>' +
      '<path d="M5 7.5h14M12 4.5v6M7.5 12h8.5L7 19.5M10 14.5l8 5" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
  ),
  // WeChat green with its two speech bubbles.
  wechat_pay: markSvg(
    '<rect width="24" height="24" rx="5" fill="#07C160"/>' +
      '<ellipse cx="10" cy="10" rx="6" ry="5" fill="#fff"/>' +
      '<ellipse cx="15" cy="14.5" rx="5" ry="4.2" fill="#fff" stroke="#07C160" stroke-width="1.5"/>',
  ),
  // Tether green with a white T.
  usdt: markSvg(
    '<rect width="24" height="24" rx="5" fill="#26A17B"/>' +
      '<path d="M6 7h12M12 7v11M7.5 11.5c1.2.8 2.7 1.2 4.5 1.2s3.3-.4 4.5-1.2" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round"/>',
  ),
  card: markSvg(
    '<rect width="24" height="24" rx="5" fill="#475569"/>' +
      '<rect x="4" y="6.5" width="16" height="11" rx="2" fill="none" stroke="#fff" stroke-width="2"/>' +
      '<path d="M4 10.5h16" stroke="#fff" stroke-width="2"/>',
  ),
};

const STYLE = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",sans-serif;background:#f1f5f9;color:#0f172a}
main{max-width:440px;margin:48px auto;padding:0 16px}
.notice{background:#fef3c7;border:2px dashed #b45309;color:#78350f;padding:12px 16px;border-radius:8px;font-weight:600}
.card{background:#fff;border-radius:12px;padding:24px;margin-top:16px;box-shadow:0 1px 3px rgba(15,23,42,.15)}
h1{font-size:24px;margin:0 0 16px}dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;margin:0 0 24px}
dt{color:#475569;white-space:nowrap}dd{margin:0;font-weight:600;overflow-wrap:anywhere}.actions{display:flex;flex-wrap:wrap;gap:12px}
.method{display:inline-flex;align-items:center;gap:8px}.mark{width:24px;height:24px;flex:none}
button,a.button{flex:1 1 auto;font:inherit;font-size:16px;padding:12px;border-radius:8px;text-align:center;cursor:pointer;text-decoration:none}
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

/**
 * The sandbox's checkout page for an order, simulating the method the buyer chose; `payable` decides
 * whether it offers Pay.
 */
export function renderSandboxCheckout(
  language: Language,
  view: { order: OrderRow; payable: boolean; payAction: string; returnUrl: string },
): string {
  const text = TEXT[language];
  const { order } = view;
  // The sandbox's checkouts are of orders a buyer made, never of a redemption's record.
  const method = isPayMethod(order.payMethod) ? order.payMethod : 'card';
  const amount = formatYuan(order.amount);
  const details =
    `<dl><dt>${escapeHtml(text.order)}</dt><dd>${escapeHtml(order.id)}</dd>` +
    `<dt>${escapeHtml(text.planLabel)}</dt><dd>${escapeHtml(text.plan(order.months, order.connections))}</dd>` +
    `<dt>${escapeHtml(text.amount)}</dt><dd>${escapeHtml(amount)}</dd>` +
    `<dt>${escapeHtml(text.method)}</dt><dd><span class="method">${MARKS[method]}` +
    `${escapeHtml(text.methods[method])}</span></dd></dl>`;
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
      `<button type="submit">${escapeHtml(text.pay[method])}</button>${back}${escapeHtml(text.cancel)}</a></form>`,
  );
}

export function renderSandboxMissing(language: Language): string {
  return page(language, `<p>${escapeHtml(TEXT[language].missing)}</p>`);
}
