/** The page a buyer comes back to from checkout: /buy opens the payment inquiry dialog for the order. */
export const returnPath = (orderId: string) => `/buy?order_id=${encodeURIComponent(orderId)}`;
