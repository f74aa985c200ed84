import type alerts from './locales/en/alerts.json';
import type audit from './locales/en/audit.json';
import type common from './locales/en/common.json';
import type coupons from './locales/en/coupons.json';
import type dashboard from './locales/en/dashboard.json';
import type gateways from './locales/en/gateways.json';
import type help from './locales/en/help.json';
import type telegram from './locales/en/telegram.json';
import type jobs from './locales/en/jobs.json';
import type mail from './locales/en/mail.json';
import type nodes from './locales/en/nodes.json';
import type notices from './locales/en/notices.json';
import type tickets from './locales/en/tickets.json';
import type redeem from './locales/en/redeem.json';
import type sales from './locales/en/sales.json';
import type session from './locales/en/session.json';
import type settings from './locales/en/settings.json';
import type staff from './locales/en/staff.json';
import type users from './locales/en/users.json';

// English is the reference: a key used in code but missing here fails the type check, and the
// translations test makes zh and tw hold the same keys.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      alerts: typeof alerts;
      audit: typeof audit;
      common: typeof common;
      coupons: typeof coupons;
      dashboard: typeof dashboard;
      gateways: typeof gateways;
      help: typeof help;
      telegram: typeof telegram;
      jobs: typeof jobs;
      mail: typeof mail;
      nodes: typeof nodes;
      notices: typeof notices;
      tickets: typeof tickets;
      redeem: typeof redeem;
      sales: typeof sales;
      session: typeof session;
      settings: typeof settings;
      staff: typeof staff;
      users: typeof users;
    };
  }
}
