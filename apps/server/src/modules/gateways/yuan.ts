/** Fen as the gateways write amounts (Epay's `money`, Alipay's `total_amount`): yuan with two decimals. */
export function yuanText(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** A gateway's amount in fen, or null when it is not an amount of yuan with at most two decimals. */
export function fenOf(money: string): number | null {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(money.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
