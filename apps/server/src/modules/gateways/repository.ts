import { GATEWAY_KINDS, type GatewayKind } from '@skyway/shared/schemas/admin/gateways';
import type { Language } from '@skyway/shared/languages';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type GatewayRow, gateways } from '../../db/schema/index.ts';

/** The provider name a gateway's orders and payments carry: `<kind>:<gateway id>`. */
export const gatewayProviderName = (row: Pick<GatewayRow, 'kind' | 'id'>) => `${row.kind}:${row.id}` as const;

const PROVIDER_NAME = new RegExp(`^(${GATEWAY_KINDS.join('|')}):([0-9a-f-]{36})$`);

/** The gateway a provider name names, or null when it names none (the site's own provider). */
export function gatewayOfProviderName(name: string): { kind: GatewayKind; id: string } | null {
  const match = PROVIDER_NAME.exec(name);
  return match ? { kind: match[1] as GatewayKind, id: match[2] as string } : null;
}

/** The buyer-facing names of the gateways among provider names, by provider name; others are absent. */
export async function gatewayNamesOf(
  db: Database,
  providerNames: string[],
): Promise<Map<string, Record<Language, string>>> {
  const ids = [...new Set(providerNames.map((name) => gatewayOfProviderName(name)?.id))].filter(
    (id): id is string => id !== undefined,
  );
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(gateways).where(inArray(gateways.id, ids));
  return new Map(rows.map((row) => [gatewayProviderName(row), row.names]));
}

export type NewGateway = typeof gateways.$inferInsert;

/** Every gateway, in the order the buy page offers them. */
export async function listGateways(db: Database): Promise<GatewayRow[]> {
  return db.select().from(gateways).orderBy(asc(gateways.position), asc(gateways.createdAt));
}

export async function findGateway(db: Database, id: string): Promise<GatewayRow | undefined> {
  const [row] = await db.select().from(gateways).where(eq(gateways.id, id));
  return row;
}

/** The gateway, held until the transaction ends (a change reads what it replaces for the audit row). */
export async function lockGateway(db: Database, id: string): Promise<GatewayRow | undefined> {
  const [row] = await db.select().from(gateways).where(eq(gateways.id, id)).for('update');
  return row;
}

export async function insertGateway(db: Database, gateway: NewGateway): Promise<GatewayRow> {
  const [row] = await db.insert(gateways).values(gateway).returning();
  if (!row) throw new Error('insert returned no gateway');
  return row;
}

export async function updateGateway(
  db: Database,
  id: string,
  change: Partial<Omit<NewGateway, 'id' | 'kind' | 'createdAt'>>,
): Promise<GatewayRow> {
  const [row] = await db.update(gateways).set(change).where(eq(gateways.id, id)).returning();
  if (!row) throw new Error(`gateway ${id} vanished under its lock`);
  return row;
}

export async function hasGateways(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: gateways.id }).from(gateways).limit(1);
  return row !== undefined;
}
