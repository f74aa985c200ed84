import os from 'node:os';
import type { NodeStatus } from './panel/panel-client.ts';

/** What `POST /node/v1/status` says about the machine: load, memory, versions, uptime. */
export function machineStatus(agentVersion: string, core: string): NodeStatus {
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  const total = os.totalmem();
  return {
    load: [one, five, fifteen],
    memory: { total, used: total - os.freemem() },
    agent_version: agentVersion,
    core,
    uptime: Math.floor(os.uptime()),
  };
}
