import { isLanguage, type Language } from '@skyway/shared/languages';
import type { Database } from '../../db/client.ts';
import { usableSlots } from '../access/slots.ts';
import { hashToken } from '../../lib/token-hash.ts';
import { mayUseNode } from '../nodes/admission.ts';
import { cachedEnabledEndpoints, type Endpoint } from '../nodes/endpoints.ts';
import { NO_USAGE, type SlotUsage, usageThisPeriod } from '../traffic/usage.ts';
import { type Credential, type Format, render } from './formats.ts';
import { type SlotAccess, slotByTokenHash } from './repository.ts';

/** Why a slot serves no servers: its account's access ended, was disabled, or does not cover it. */
export type SlotState = 'active' | 'expired' | 'disabled' | 'beyond_connections' | 'no_servers';

/** What an app shows in place of servers, in the customer's language: why, and where to go. */
const NOTICES: Record<Exclude<SlotState, 'active'>, Record<Language, string>> = {
  expired: {
    en: 'Plan expired: renew at {site}',
    zh: '套餐已到期，请续费：{site}',
    tw: '方案已到期，請續費：{site}',
  },
  disabled: {
    en: 'Account disabled: contact support',
    zh: '账户已停用，请联系客服',
    tw: '帳戶已停用，請聯絡客服',
  },
  beyond_connections: {
    en: 'This device is beyond your plan’s connections: {site}',
    zh: '此设备超出套餐连接数：{site}',
    tw: '此裝置超出方案連線數：{site}',
  },
  no_servers: {
    en: 'No servers yet: try again soon',
    zh: '暂无可用节点，请稍后再试',
    tw: '暫無可用節點，請稍後再試',
  },
};

export interface Subscription {
  state: SlotState;
  language: Language;
  body: string;
  /** For `subscription-userinfo`: the access's end, unix seconds (0: none). */
  expire: number;
  /** For `subscription-userinfo`: the slot's traffic this period. */
  usage: SlotUsage;
}

function stateOf(access: SlotAccess, now: Date): Exclude<SlotState, 'no_servers'> {
  if (access.user.revokedAt) return 'disabled';
  const usable = usableSlots(access.user, now);
  if (usable === 0) return 'expired';
  return access.slot.position > usable ? 'beyond_connections' : 'active';
}

/** An entry that connects nowhere, whose name is the notice: apps show it where servers would be. */
const noticeEndpoint = (name: string): Endpoint => ({
  name,
  host: '127.0.0.1',
  protocol: 'vless',
  port: 1,
  transport: 'tcp',
  path: null,
  security: 'none',
  serverName: null,
  flow: null,
  realityPublicKey: null,
  realityShortId: null,
  method: null,
  serverKey: null,
});

export interface SubscriptionDeps {
  db: Database;
  siteName: string;
}

/**
 * A slot's subscription in a format, by its token: the servers its account's plan may use, or, when
 * the slot serves none, one entry that says why (in the customer's language) rather than a broken
 * file. Undefined for a token that is no slot's.
 */
export async function subscriptionFor(
  deps: SubscriptionDeps,
  request: { token: string; format: Format; origin: string; now: Date },
): Promise<(Subscription & { slotId: string }) | undefined> {
  if (!/^[\w-]{43}$/.test(request.token)) return undefined;
  const access = await slotByTokenHash(deps.db, hashToken(request.token));
  if (!access) return undefined;
  const language = isLanguage(access.user.language) ? access.user.language : 'zh';
  let state: SlotState = stateOf(access, request.now);
  let endpoints: Endpoint[] = [];
  if (state === 'active') {
    const connections = usableSlots(access.user, request.now);
    endpoints = (await cachedEnabledEndpoints(deps.db)).filter((endpoint) =>
      mayUseNode(endpoint, { period: access.period, connections }),
    );
    if (endpoints.length === 0) state = 'no_servers';
  }
  if (state !== 'active') {
    endpoints = [noticeEndpoint(NOTICES[state][language].replace('{site}', `${request.origin}/buy`))];
  }
  const credential: Credential = { uuid: access.slot.credential, secret: access.slot.secret };
  const usage = await usageThisPeriod(deps.db, [access.slot.id], request.now);
  return {
    slotId: access.slot.id,
    state,
    language,
    body: render(request.format, endpoints, credential, deps.siteName),
    expire: access.user.expireAt ? Math.floor(access.user.expireAt.getTime() / 1000) : 0,
    usage: usage.get(access.slot.id) ?? NO_USAGE,
  };
}
