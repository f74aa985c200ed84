import { z } from 'zod';

/**
 * `/web/redeem`: a code as the customer typed it (spaces, dashes and case do not matter). Any text up
 * to this length is looked up, so a mistyped code is refused like an unknown one.
 */
export const redeemRequest = z.object({ code: z.string().trim().min(1).max(64) });

/** Reply of `/web/redeem`: the new expiry (unix seconds) and the order-like record made for it. */
export const redeemReplySchema = z.object({
  order_id: z.string(),
  expire_user: z.number().int(),
});
