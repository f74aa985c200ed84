// Money in fen (1/100 RMB), in a module of its own without zod: the public pages show prices and
// must not carry zod (23 kB gzip, and its probe for eval trips the Content-Security-Policy).

/** The price of an order in fen: the period's unit price times the connections. */
export const orderAmount = (unitPrice: number, connections: number) => unitPrice * connections;

/**
 * A payment gateway's fee in fen: `bps` basis points of the amount, rounded half up to the fen (all in
 * integers, so the buy page shows to the fen what the server charges).
 */
export const gatewayFee = (amount: number, bps: number) => Math.floor((amount * bps + 5_000) / 10_000);

/** `¥30.00` from 3000 fen. */
export const formatYuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;
