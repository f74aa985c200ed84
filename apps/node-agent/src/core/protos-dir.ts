import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The vendored `.proto` files: `protos/` beside the bundle (`dist/protos`), or the workspace's own
 * folder when run from the sources. NODE_AGENT_PROTOS points elsewhere.
 */
export function protosDir(): string {
  const candidates = [
    process.env.NODE_AGENT_PROTOS,
    path.join(import.meta.dirname, 'protos'),
    path.join(import.meta.dirname, '../../protos'),
  ].filter((dir): dir is string => Boolean(dir));
  const found = candidates.find((dir) => existsSync(path.join(dir, 'xray')));
  if (!found) throw new Error(`no vendored .proto files in ${candidates.join(' or ')}`);
  return found;
}
