import manifest from '../package.json' with { type: 'json' };

/** The agent's version, as `POST /node/v1/status` and the User-Agent give it. */
export const AGENT_VERSION: string = manifest.version ?? '0.0.0';
