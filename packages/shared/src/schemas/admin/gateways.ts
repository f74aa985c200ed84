import { z } from 'zod';
import { LANGUAGES } from '../../languages.ts';
import { isoTime } from './common.ts';

/** The kinds of payment gateway (PRODUCT.md section 8): Epay, Alipay face-to-face, a USDT gateway speaking EPUSDT's API. */
export const GATEWAY_KINDS = ['epay', 'alipay_f2f', 'epusdt'] as const;
export type GatewayKind = (typeof GATEWAY_KINDS)[number];

/** What a gateway may collect with, in the aggregators' own words. */
export const GATEWAY_METHODS = ['alipay', 'wxpay', 'usdt'] as const;
export type GatewayMethod = (typeof GATEWAY_METHODS)[number];

/** The largest fee a gateway may add, in basis points of the order's amount (10 000 = 100 %). */
export const GATEWAY_FEE_MAX = 2_000;

const buyerName = z.string().trim().min(1).max(60);
const names = z.object(
  Object.fromEntries(LANGUAGES.map((language) => [language, buyerName])) as Record<
    (typeof LANGUAGES)[number],
    typeof buyerName
  >,
);
/** Each method once; `served` the methods the gateway's kind can collect with. */
const methodsOf = (served: readonly [GatewayMethod, ...GatewayMethod[]]) =>
  z
    .array(z.enum(served))
    .min(1)
    .refine((list) => new Set(list).size === list.length, 'each method once');

/**
 * How an Epay gateway takes the buyer's payment: `page` sends the buyer to its submit.php (every
 * aggregator has it); `api` asks its mapi.php for the payment's QR code or app link, shown on the buy
 * page without leaving it (where the aggregator offers the API).
 */
export const EPAY_MODES = ['page', 'api'] as const;
export type EpayMode = (typeof EPAY_MODES)[number];

/** An Epay merchant: its site (where submit.php, mapi.php and api.php are), its pid and its key. */
const epaySettings = z.object({
  url: z.url({ protocol: /^https?$/ }).max(300),
  pid: z
    .string()
    .trim()
    .regex(/^\d{1,20}$/),
  mode: z.enum(EPAY_MODES).default('page'),
});
const epayKeys = z.object({ key: z.string().min(8).max(200) });

/** A USDT gateway speaking EPUSDT's API: its base URL, and the API token it signs with. */
const epusdtSettings = z.object({ url: z.url({ protocol: /^https?$/ }).max(300) });
const epusdtKeys = z.object({ token: z.string().min(8).max(200) });

/** Alipay's production OpenAPI gateway, where face-to-face calls go unless the settings say otherwise. */
export const ALIPAY_GATEWAY_URL = 'https://openapi.alipay.com/gateway.do';

/** An RSA key as Alipay's key tool gives it: base64, with or without its PEM lines. */
const rsaKeyText = z.string().trim().min(100).max(5000);

/**
 * An Alipay face-to-face (当面付) app: its app id, Alipay's public key (which checks what Alipay
 * signs; not secret) and the OpenAPI gateway it calls; its key is the app's RSA2 private key.
 */
const alipaySettings = z.object({
  app_id: z
    .string()
    .trim()
    .regex(/^\d{8,32}$/),
  alipay_public_key: rsaKeyText,
  gateway_url: z
    .url({ protocol: /^https?$/ })
    .max(300)
    .default(ALIPAY_GATEWAY_URL),
});
const alipayKeys = z.object({ private_key: rsaKeyText });

/**
 * What each kind of gateway is configured with, and what it can collect with: the create and update
 * requests are built from this one table (a new kind is one more row).
 */
const KIND_FORMS = {
  epay: { methods: methodsOf(GATEWAY_METHODS), settings: epaySettings, keys: epayKeys },
  epusdt: { methods: methodsOf(['usdt']), settings: epusdtSettings, keys: epusdtKeys },
  // Face-to-face collects with Alipay alone.
  alipay_f2f: { methods: methodsOf(['alipay']), settings: alipaySettings, keys: alipayKeys },
} as const;
type FormKind = keyof typeof KIND_FORMS;

/** A kind's form, for the server to check an update against the gateway it changes; null: none yet. */
export const gatewayFormOf = (kind: GatewayKind) =>
  kind in KIND_FORMS ? KIND_FORMS[kind as FormKind] : null;

const common = {
  names,
  position: z.number().int().min(0).max(1000).default(0),
  /** Added to the buyer's price and shown before paying; null: none. */
  fee_bps: z.number().int().min(0).max(GATEWAY_FEE_MAX).nullable().default(null),
  enabled: z.boolean().default(true),
};

const createOf = <K extends FormKind>(kind: K) =>
  z.object({ kind: z.literal(kind), ...common, ...KIND_FORMS[kind] });

/** A new gateway: its kind's settings and keys. */
export const gatewayCreateRequest = z.discriminatedUnion('kind', [
  createOf('epay'),
  createOf('epusdt'),
  createOf('alipay_f2f'),
]);
export type GatewayCreateRequest = z.infer<typeof gatewayCreateRequest>;

/**
 * A change: any field; keys given replace the stored ones, keys left out stay. Settings, keys and
 * methods are those of some kind here; the server checks them against the gateway's own kind.
 */
export const gatewayUpdateRequest = z.object({
  names: names.optional(),
  methods: methodsOf(GATEWAY_METHODS).optional(),
  position: common.position.unwrap().optional(),
  fee_bps: common.fee_bps.unwrap().optional(),
  enabled: z.boolean().optional(),
  settings: z.union([epaySettings, epusdtSettings, alipaySettings]).optional(),
  keys: z.union([epayKeys, epusdtKeys, alipayKeys]).optional(),
});
export type GatewayUpdateRequest = z.infer<typeof gatewayUpdateRequest>;

/** A gateway as the back office shows it: never its keys, only that they are set. */
export const gatewaySchema = z.object({
  id: z.uuid(),
  kind: z.enum(GATEWAY_KINDS),
  names,
  methods: z.array(z.enum(GATEWAY_METHODS)),
  position: z.number().int(),
  fee_bps: z.number().int().nullable(),
  enabled: z.boolean(),
  /**
   * The kind's settings: an Epay site and merchant id, a USDT gateway's base URL, an Alipay app's id,
   * Alipay's public key and the OpenAPI gateway it calls.
   */
  settings: z.union([
    z.object({ url: z.string(), pid: z.string().optional(), mode: z.enum(EPAY_MODES).optional() }),
    z.object({ app_id: z.string(), alipay_public_key: z.string(), gateway_url: z.string() }),
  ]),
  keys_set: z.boolean(),
  created_at: isoTime,
  updated_at: isoTime,
});
export const gatewayListSchema = z.object({ items: z.array(gatewaySchema) });

/**
 * What the gateway answered a query for a made-up order: `ok` (it knows the keys and no such order),
 * `keys_refused`, or `unreachable`, with its own message.
 */
export const GATEWAY_TEST_RESULTS = ['ok', 'keys_refused', 'unreachable'] as const;
export const gatewayTestSchema = z.object({
  result: z.enum(GATEWAY_TEST_RESULTS),
  message: z.string(),
});
