import type { Language } from '@skyway/shared/languages';
import type { StaffAlertKind } from '@skyway/shared/schemas/admin/alerts';

/** What an alert says, in each staff language: its title when it opens and when it ends. */
export const ALERT_TEXTS: Record<
  Language,
  Record<StaffAlertKind, { opened: string; closed: string; detail: string }>
> = {
  en: {
    node_silent: {
      opened: 'Node {label} is not reporting',
      closed: 'Node {label} is reporting again',
      detail: 'Its agent was not heard from for {minutes} minutes.',
    },
    mail_stuck: {
      opened: 'The mail queue is stuck',
      closed: 'The mail queue moves again',
      detail: 'Mail has waited more than 15 minutes.',
    },
    telegram_stuck: {
      opened: 'The Telegram queue is stuck',
      closed: 'The Telegram queue moves again',
      detail: 'Telegram messages have waited more than 15 minutes.',
    },
    job_failing: {
      opened: 'Job {label} failed twice in a row',
      closed: 'Job {label} runs again',
      detail: 'Its two latest runs failed; the jobs screen has their errors.',
    },
    attention: {
      opened: 'Attention queue: {count} {label} waiting',
      closed: 'Attention queue: no {label} waiting any more',
      detail: '{count} {label} wait for a decision in the attention queue.',
    },
    gateway_failing: {
      opened: 'Gateway {label} notifies are refused',
      closed: 'Gateway {label} notifies: none refused for 15 minutes',
      detail: '{count} of its notifies were refused for a bad signature or another merchant in 15 minutes.',
    },
  },
  zh: {
    node_silent: {
      opened: '节点 {label} 没有上报',
      closed: '节点 {label} 已恢复上报',
      detail: '已有 {minutes} 分钟未收到其代理的消息。',
    },
    mail_stuck: { opened: '邮件队列阻塞', closed: '邮件队列已恢复', detail: '有邮件已等待超过 15 分钟。' },
    telegram_stuck: {
      opened: 'Telegram 队列阻塞',
      closed: 'Telegram 队列已恢复',
      detail: '有 Telegram 消息已等待超过 15 分钟。',
    },
    job_failing: {
      opened: '任务 {label} 连续两次失败',
      closed: '任务 {label} 已恢复运行',
      detail: '最近两次运行均失败，错误信息见任务页面。',
    },
    attention: {
      opened: '待处理队列：{count} 项{label}待处理',
      closed: '待处理队列：{label}已全部处理',
      detail: '待处理队列中有 {count} 项{label}等待决定。',
    },
    gateway_failing: {
      opened: '支付网关 {label} 的通知被拒绝',
      closed: '支付网关 {label}：15 分钟内无被拒绝的通知',
      detail: '15 分钟内有 {count} 条通知因签名错误或商户不符被拒绝。',
    },
  },
  tw: {
    node_silent: {
      opened: '節點 {label} 沒有回報',
      closed: '節點 {label} 已恢復回報',
      detail: '已有 {minutes} 分鐘未收到其代理的訊息。',
    },
    mail_stuck: { opened: '郵件佇列阻塞', closed: '郵件佇列已恢復', detail: '有郵件已等待超過 15 分鐘。' },
    telegram_stuck: {
      opened: 'Telegram 佇列阻塞',
      closed: 'Telegram 佇列已恢復',
      detail: '有 Telegram 訊息已等待超過 15 分鐘。',
    },
    job_failing: {
      opened: '任務 {label} 連續兩次失敗',
      closed: '任務 {label} 已恢復運行',
      detail: '最近兩次執行均失敗，錯誤訊息見任務頁面。',
    },
    attention: {
      opened: '待處理佇列：{count} 項{label}待處理',
      closed: '待處理佇列：{label}已全部處理',
      detail: '待處理佇列中有 {count} 項{label}等待決定。',
    },
    gateway_failing: {
      opened: '支付閘道 {label} 的通知被拒絕',
      closed: '支付閘道 {label}：15 分鐘內無被拒絕的通知',
      detail: '15 分鐘內有 {count} 則通知因簽章錯誤或商戶不符被拒絕。',
    },
  },
};

/** The attention queue's kinds (as `attentionCounts` names them), in each staff language. */
export const ATTENTION_NAMES: Record<Language, Record<string, string>> = {
  en: {
    payments: 'payments',
    refunds: 'refunds',
    notices: 'provider notices',
    mail: 'failed mails',
    traffic: 'traffic discrepancies',
  },
  zh: {
    payments: '付款',
    refunds: '退款',
    notices: '服务商通知',
    mail: '发送失败的邮件',
    traffic: '流量差异',
  },
  tw: {
    payments: '付款',
    refunds: '退款',
    notices: '服務商通知',
    mail: '發送失敗的郵件',
    traffic: '流量差異',
  },
};

/** The digest's headings. */
export const DIGEST_TEXTS: Record<
  Language,
  { opened: string; closed: string; open: string; attention: string }
> = {
  en: {
    opened: 'Opened in the last 24 hours',
    closed: 'Ended in the last 24 hours',
    open: 'Still open',
    attention: 'Waiting in the attention queue',
  },
  zh: {
    opened: '过去 24 小时内发生',
    closed: '过去 24 小时内结束',
    open: '仍未结束',
    attention: '待处理队列',
  },
  tw: {
    opened: '過去 24 小時內發生',
    closed: '過去 24 小時內結束',
    open: '仍未結束',
    attention: '待處理佇列',
  },
};

/** Where in the back office each kind is looked into. */
export const BACK_OFFICE_PATH: Record<StaffAlertKind, string> = {
  node_silent: '/admin/nodes',
  mail_stuck: '/admin/mail',
  telegram_stuck: '/admin/attention',
  job_failing: '/admin/jobs',
  attention: '/admin/attention',
  gateway_failing: '/admin/gateways',
};

/** An alert's title or detail, filled in the member's language. */
export function fillAlertText(
  pattern: string,
  language: Language,
  kind: StaffAlertKind,
  facts: { label: string; count: number; minutes: number },
): string {
  const label = kind === 'attention' ? (ATTENTION_NAMES[language][facts.label] ?? facts.label) : facts.label;
  return pattern
    .replace('{label}', label)
    .replace('{count}', String(facts.count))
    .replace('{minutes}', String(facts.minutes));
}
