import path from 'node:path';
import { z } from 'zod';
import { nodeConfigSchema, nodeCredentialSchema } from '@skyway/shared/schemas/node-api';
import { readJsonFile, writeFileAtomic } from '../lib/files.ts';

/**
 * The last config and credentials the panel gave, on disk (mode 0600): after a reboot while the panel
 * is unreachable, the node serves its users as they were instead of nobody. Credentials are secrets:
 * the state folder is the agent's alone.
 */
const cacheSchema = z.object({
  config: nodeConfigSchema,
  config_etag: z.string().optional(),
  revision: z.number().int(),
  credentials: z.array(nodeCredentialSchema),
});

export type PanelCache = z.infer<typeof cacheSchema>;

const cacheFile = (stateDir: string) => path.join(stateDir, 'panel-cache.json');

export async function readPanelCache(stateDir: string): Promise<PanelCache | undefined> {
  const parsed = cacheSchema.safeParse(await readJsonFile(cacheFile(stateDir)));
  return parsed.success ? parsed.data : undefined;
}

export async function writePanelCache(stateDir: string, cache: PanelCache): Promise<void> {
  await writeFileAtomic(cacheFile(stateDir), JSON.stringify(cache));
}
