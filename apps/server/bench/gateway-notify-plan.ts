// The send plan of `npm run bench:notify` (gateway-notify.ts): which order's notify goes when, which
// are sent twice at once, and from which address. Pure, so that it can be tested apart from the run.

/**
 * The orders' notifies in sending order, by order index (0 to `orders` − 1): each once, and every
 * `duplicateEvery`-th one twice in a row (both come due together, so they are sent at once on two
 * connections, as a gateway retrying before its first delivery was answered does).
 */
export function notifyPlan(orders: number, duplicateEvery: number): number[] {
  const plan: number[] = [];
  for (let order = 0; order < orders; order++) {
    plan.push(order);
    if (duplicateEvery > 0 && order % duplicateEvery === duplicateEvery - 1) plan.push(order);
  }
  return plan;
}

/** Notifies sent for `orders` distinct orders when every `duplicateEvery`-th is sent twice. */
export const notifiesFor = (orders: number, duplicateEvery: number) =>
  orders + (duplicateEvery > 0 ? Math.floor(orders / duplicateEvery) : 0);

/**
 * How many addresses a gateway must send from so that none passes the notify routes' limit
 * (`perMinute` notifies a minute from one address) at `perSecond` notifies a second, sustained.
 */
export const sendingAddresses = (perSecond: number, perMinute: number) =>
  Math.ceil((perSecond * 60) / perMinute);

/** The `index`-th address of the benchmarking range (198.18.0.0/15), as a proxy reports it. */
export function benchAddress(index: number): string {
  const host = index % (2 * 256 * 254);
  return `198.${18 + Math.floor(host / (256 * 254))}.${Math.floor(host / 254) % 256}.${(host % 254) + 1}`;
}
