import { eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client.ts';
import { deviceSlots } from '../db/schema/index.ts';
import { inAccountTransaction } from '../modules/access/access.ts';
import { signedInUser } from './test-app.ts';

/**
 * A new signed-in customer who bought a month of `connections` (through the access module, as a
 * paid order does), and their slots as the database has them, in position order.
 */
export async function payingCustomer(database: DatabaseHandle, connections = 1) {
  const { user, token } = await signedInUser(database);
  await inAccountTransaction(database.db, user.id, new Date(), (account) =>
    account.purchase({ id: `order-${user.id}`, days: 31, connections }),
  );
  const slots = await database.db
    .select()
    .from(deviceSlots)
    .where(eq(deviceSlots.userId, user.id))
    .orderBy(deviceSlots.position);
  return { user, token, slots };
}
