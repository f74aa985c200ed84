// What `npm run bench:notify` (gateway-notify.ts) seeds, and the notifies its gateways send.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { gateways } from '../src/db/schema/index.ts';
import { epaySigned } from '../src/modules/gateways/epay-protocol.ts';
import { epusdtSign, EPUSDT_PAID } from '../src/modules/gateways/epusdt-protocol.ts';
import { sealKeys } from '../src/modules/gateways/secrets.ts';
import { yuanText } from '../src/modules/gateways/yuan.ts';
import { epayNotifyPath } from '../src/modules/payments/epay.ts';
import { usdtNotifyPath } from '../src/modules/payments/epusdt.ts';
import type { RequestSpec } from './api-load.ts';
import { seedCustomers } from './seeds.ts';

/** One order in USDT_EVERY goes through the USDT gateway, the others through Epay. */
export const USDT_EVERY = 10;
/** The price of a month a connection, fen; and the USDT gateway's rate, yuan to the USDT. */
const MONTH_FEN = 2_500;
const USDT_RATE = 7.2;
/** The days an order buys. */
export const MONTH_DAYS = 31;

export interface Gateway {
  id: string;
  /** The Epay merchant's key, or the USDT gateway's API token. */
  key: string;
}

/** An order as seeded, with what its notify carries. */
export interface SeededOrder {
  id: string;
  amount: number;
  usdt: string | null;
  providerRef: string | null;
  n: number;
}

/**
 * The two gateways; `count` customers with live access (1 to 3 connections) and their active slots;
 * one unpaid order each, a month at their connections, customer n's order the n-th notified: one in
 * USDT_EVERY through the USDT gateway (with the trade it opened and the USDT it asked for), the
 * others through Epay.
 */
export interface NotifySeed {
  epay: Gateway & { pid: string };
  usdt: Gateway;
  /** In the order their notifies are sent. */
  orders: SeededOrder[];
}

export async function seedNotifyOrders(db: Database, secretsKey: Buffer, count: number): Promise<NotifySeed> {
  const epay = { id: randomUUID(), key: randomBytes(16).toString('hex'), pid: '1042' };
  const usdt = { id: randomUUID(), key: randomBytes(16).toString('hex') };
  await db.insert(gateways).values([
    {
      id: epay.id,
      kind: 'epay',
      names: { en: 'Alipay (Epay)', zh: '支付宝（易支付）', tw: '支付寶（易支付）' },
      methods: ['alipay', 'wxpay'],
      position: 1,
      settings: { url: 'https://pay.example.com', pid: epay.pid },
      sealedKeys: sealKeys(secretsKey, epay.id, { key: epay.key }),
    },
    {
      id: usdt.id,
      kind: 'epusdt',
      names: { en: 'USDT (TRC20)', zh: 'USDT（TRC20）', tw: 'USDT（TRC20）' },
      methods: ['usdt'],
      position: 2,
      settings: { url: 'https://usdt.example.com' },
      sealedKeys: sealKeys(secretsKey, usdt.id, { token: usdt.key }),
    },
  ]);
  const salt = randomBytes(6).toString('hex');
  await seedCustomers(db, { count, salt, label: 'notify' });
  await db.execute(sql`
    insert into device_slots (user_id, position, credential, secret, active, created_at)
    select md5(${salt} || n)::uuid, position, gen_random_uuid(),
      encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'base64'), true, now() - interval '10 days'
    from generate_series(1, ${count}) n, generate_series(1, 3) position
    where position <= 1 + n % 3`);
  await db.execute(sql`
    insert into orders (id, user_id, period, months, days, connections, unit_price, amount, currency,
      pay_method, provider, provider_ref, usdt_amount, status, created_at, latest_pay_at)
    select 'notify-' || ${salt} || '-' || n, md5(${salt} || n)::uuid, 'month', 1, ${MONTH_DAYS}, 1 + n % 3,
      ${MONTH_FEN}, ${MONTH_FEN} * (1 + n % 3), 'CNY',
      case when usdt then 'usdt' else 'alipay' end,
      case when usdt then ${`epusdt:${usdt.id}`} else ${`epay:${epay.id}`} end,
      case when usdt then 'T' || ${salt} || lpad(n::text, 8, '0') else 'notify-' || ${salt} || '-' || n end,
      case when usdt then trim(trailing '.' from trim(trailing '0' from
        round(${MONTH_FEN} * (1 + n % 3) / 100.0 / ${USDT_RATE}, 4)::text)) end,
      'unpaid', now() - interval '1 minute', now() + interval '2 hours'
    from generate_series(1, ${count}) n, lateral (select n % ${USDT_EVERY} = 0 as usdt) kind`);
  await db.execute(sql`vacuum analyze`);
  const orders = rowsOf<SeededOrder>(
    await db.execute(sql`select id, amount, usdt_amount as usdt, provider_ref as "providerRef",
        split_part(id, '-', 3)::int as n
      from orders where id like ${`notify-${salt}-%`} order by n`),
  );
  return { epay, usdt, orders };
}

/** Each order's notify as its gateway sends it, signed with the gateway's key. */
export function notifyOf(order: SeededOrder, epay: Gateway & { pid: string }, usdt: Gateway): RequestSpec {
  if (order.usdt !== null) {
    const fields = {
      trade_id: order.providerRef ?? '',
      order_id: order.id,
      amount: order.amount / 100,
      actual_amount: Number(order.usdt),
      token: 'TBenchWalletAddress000000000000000',
      block_transaction_id: randomBytes(32).toString('hex'),
      status: EPUSDT_PAID,
    };
    return {
      method: 'POST',
      path: usdtNotifyPath(usdt.id),
      body: { ...fields, signature: epusdtSign(fields, usdt.key) },
    };
  }
  const form = epaySigned(
    {
      pid: epay.pid,
      trade_no: `2026${String(order.n).padStart(12, '0')}`,
      out_trade_no: order.id,
      type: 'alipay',
      name: order.id,
      money: yuanText(order.amount),
      trade_status: 'TRADE_SUCCESS',
    },
    epay.key,
  );
  return { method: 'POST', path: epayNotifyPath(epay.id), form };
}
