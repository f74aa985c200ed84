import type { CoreDialect } from './dialect.ts';
import { streamSettings, USER_LEVEL } from './render-config.ts';

/**
 * V2Ray 4.x as Debian ships it (4.34, `v2ray.core.*`): VLESS, VMess and Trojan over TCP or
 * WebSocket, with or without TLS. It has no Shadowsocks 2022, REALITY, Vision flow or gRPC transport.
 */
export const v2rayDialect: CoreDialect = {
  name: 'v2ray',
  protos: { folder: 'v2ray', package: 'v2ray.core' },
  addresses: 'access-log',
  liveRefusals: false,
  userPolicy: { statsUserUplink: true, statsUserDownlink: true },

  unsupported(inbound) {
    if (inbound.protocol === 'shadowsocks') return 'v2ray has no Shadowsocks 2022 (use the xray core)';
    if (inbound.security === 'reality') return 'v2ray has no REALITY (use the xray core)';
    if (inbound.flow) return `v2ray has no ${inbound.flow} flow (use the xray core)`;
    if (inbound.transport === 'grpc') return 'v2ray 4.34 has no gRPC transport (use the xray core)';
    return undefined;
  },

  inbound(inbound, users, settings) {
    const stream = streamSettings(inbound, settings);
    switch (inbound.protocol) {
      case 'vless':
        return {
          protocol: 'vless',
          settings: {
            clients: users.map((user) => ({ id: user.uuid, email: user.email, level: USER_LEVEL })),
            decryption: 'none',
          },
          streamSettings: stream,
        };
      case 'vmess':
        return {
          protocol: 'vmess',
          settings: {
            clients: users.map((user) => ({
              id: user.uuid,
              email: user.email,
              level: USER_LEVEL,
              alterId: 0,
            })),
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
        throw new Error('v2ray has no Shadowsocks 2022');
    }
  },

  account(inbound, user) {
    switch (inbound.protocol) {
      case 'vless':
        return { type: 'v2ray.core.proxy.vless.Account', fields: { id: user.uuid } };
      case 'vmess':
        return { type: 'v2ray.core.proxy.vmess.Account', fields: { id: user.uuid, alter_id: 0 } };
      case 'trojan':
        return { type: 'v2ray.core.proxy.trojan.Account', fields: { password: user.password } };
      case 'shadowsocks':
        throw new Error('v2ray has no Shadowsocks 2022');
    }
  },

  runArgs: (configFile) => ['-config', configFile],
  versionArgs: ['-version'],
};
