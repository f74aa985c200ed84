import type account from './locales/en/account.json';
import type appStore from './locales/en/app-store.json';
import type buy from './locales/en/buy.json';
import type common from './locales/en/common.json';
import type devices from './locales/en/devices.json';
import type download from './locales/en/download.json';
import type help from './locales/en/help.json';
import type invitations from './locales/en/invitations.json';
import type legal from './locales/en/legal.json';
import type legalPrivacy from './locales/en/legal-privacy.json';
import type legalService from './locales/en/legal-service.json';
import type legalUse from './locales/en/legal-use.json';
import type login from './locales/en/login.json';
import type notFound from './locales/en/not-found.json';
import type nodes from './locales/en/nodes.json';
import type notices from './locales/en/notices.json';
import type telegram from './locales/en/telegram.json';
import type orders from './locales/en/orders.json';
import type redeem from './locales/en/redeem.json';
import type support from './locales/en/support.json';
import type trial from './locales/en/trial.json';

// English is the reference: a key used in code but missing here fails the type check, and the
// translations test makes zh and tw hold the same keys.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      account: typeof account;
      'app-store': typeof appStore;
      buy: typeof buy;
      common: typeof common;
      devices: typeof devices;
      download: typeof download;
      help: typeof help;
      invitations: typeof invitations;
      legal: typeof legal;
      'legal-privacy': typeof legalPrivacy;
      'legal-service': typeof legalService;
      'legal-use': typeof legalUse;
      login: typeof login;
      'not-found': typeof notFound;
      nodes: typeof nodes;
      notices: typeof notices;
      telegram: typeof telegram;
      orders: typeof orders;
      redeem: typeof redeem;
      support: typeof support;
      trial: typeof trial;
    };
  }
}
