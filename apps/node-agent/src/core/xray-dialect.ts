import { ssUserKey } from '@skyway/shared/shadowsocks';
import type { CoreDialect } from './dialect.ts';
import type { CoreConfig, CoreSettings, NodeInbound } from './driver.ts';
import { streamSettings, USER_LEVEL } from './render-config.ts';

/** REALITY's settings: our private key; what is not ours goes on to the real site. */
function realitySettings(inbound: NodeInbound, settings: CoreSettings): CoreConfig {
  const serverName = inbound.server_name ?? '';
  return {
    dest: settings.reality?.dest ?? `${serverName}:443`,
    serverNames: [serverName],
    privateKey: settings.reality?.privateKey ?? '',
    shortIds: [inbound.reality_short_id ?? ''],
  };
}

function xrayStream(inbound: NodeInbound, settings: CoreSettings): CoreConfig {
  const stream = streamSettings(inbound, settings);
  if (inbound.security === 'reality') stream.realitySettings = realitySettings(inbound, settings);
  return stream;
}

/** The Shadowsocks 2022 method's key for a user (the slot's secret cut to the method's length). */
const ssKey = (inbound: NodeInbound, password: string) => ssUserKey(password, inbound.method ?? '');

/**
 * Xray (production, `xray.*`): VLESS (with the Vision flow), VMess, Trojan and Shadowsocks 2022
 * (multi-user); transports TCP, WebSocket and gRPC; TLS and REALITY. Per-user online addresses need
 * Xray 25.3.6 or newer (`statsUserOnline`); the rest works on any Xray of the last years.
 */
export const xrayDialect: CoreDialect = {
  name: 'xray',
  protos: { folder: 'xray', package: 'xray' },
  addresses: 'online-stats',
  liveRefusals: true,
  userPolicy: { statsUserUplink: true, statsUserDownlink: true, statsUserOnline: true },

  unsupported(inbound, settings) {
    if (inbound.security === 'reality') {
      if (!settings.reality) return 'REALITY needs REALITY_PRIVATE_KEY in the agent configuration';
      if (!inbound.server_name) return 'REALITY needs the inbound’s server name';
      if (inbound.transport === 'ws') return 'REALITY does not run over WebSocket';
    }
    if (inbound.flow) {
      if (inbound.protocol !== 'vless') return `the ${inbound.flow} flow is VLESS only`;
      if (inbound.transport !== 'tcp' || inbound.security === 'none') {
        return `the ${inbound.flow} flow needs TCP with TLS or REALITY`;
      }
    }
    if (inbound.protocol === 'shadowsocks') {
      if (!inbound.method || !inbound.server_key) return 'Shadowsocks 2022 needs its method and server key';
      if (inbound.transport !== 'tcp' || inbound.security !== 'none') {
        return 'Shadowsocks 2022 runs on plain TCP/UDP only';
      }
    }
    return undefined;
  },

  inbound(inbound, users, settings) {
    const stream = xrayStream(inbound, settings);
    switch (inbound.protocol) {
      case 'vless':
        return {
          protocol: 'vless',
          settings: {
            clients: users.map((user) => ({
              id: user.uuid,
              email: user.email,
              level: USER_LEVEL,
              ...(inbound.flow ? { flow: inbound.flow } : {}),
            })),
            decryption: 'none',
          },
          streamSettings: stream,
        };
      case 'vmess':
        return {
          protocol: 'vmess',
          settings: {
            clients: users.map((user) => ({ id: user.uuid, email: user.email, level: USER_LEVEL })),
          },
          streamSettings: stream,
        };
      case 'trojan':
        return {
          protocol: 'trojan',
          settings: {
            clients: users.map((user) => ({ password: user.password, email: user.email, level: USER_LEVEL })),
          },
          streamSettings: stream,
        };
      case 'shadowsocks':
        return {
          protocol: 'shadowsocks',
          settings: {
            method: inbound.method,
            password: inbound.server_key,
            clients: users.map((user) => ({
              password: ssKey(inbound, user.password),
              email: user.email,
              level: USER_LEVEL,
            })),
            network: 'tcp,udp',
          },
          streamSettings: stream,
        };
    }
  },

  account(inbound, user) {
    switch (inbound.protocol) {
      case 'vless':
        return {
          type: 'xray.proxy.vless.Account',
          fields: { id: user.uuid, flow: inbound.flow ?? '' },
        };
      case 'vmess':
        return { type: 'xray.proxy.vmess.Account', fields: { id: user.uuid } };
      case 'trojan':
        return { type: 'xray.proxy.trojan.Account', fields: { password: user.password } };
      case 'shadowsocks':
        return {
          type: 'xray.proxy.shadowsocks_2022.Account',
          fields: { key: ssKey(inbound, user.password) },
        };
    }
  },

  runArgs: (configFile) => ['run', '-c', configFile],
  versionArgs: ['version'],
};
