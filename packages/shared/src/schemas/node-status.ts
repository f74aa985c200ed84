import { z } from 'zod';

/** A node as the console's node status page shows it: where it is and how it is, never its address. */
export const customerNodeSchema = z.object({
  name: z.string(),
  region: z.string(),
  /** Its agent has been heard from within NODE_ONLINE_WITHIN_SECONDS. */
  online: z.boolean(),
  /** The machine's 1-minute load average as its agent last reported it; null: never reported. */
  load: z.number().nullable(),
});
export type CustomerNode = z.infer<typeof customerNodeSchema>;

/** The nodes the account's access may use now, in the order the subscription links list them. */
export const nodeStatusListSchema = z.object({ nodes: z.array(customerNodeSchema) });
export type NodeStatusList = z.infer<typeof nodeStatusListSchema>;

/**
 * How recently a node's agent must have called for the node to count as online. Agents call every few
 * seconds and the server notes it at most every 15 s, so two minutes is several missed calls in a row.
 */
export const NODE_ONLINE_WITHIN_SECONDS = 120;
