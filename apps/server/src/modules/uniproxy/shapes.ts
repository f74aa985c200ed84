/**
 * The replies of the UniProxy compatibility routes, in the shapes the existing node programs parse.
 * Followed, field by field:
 *
 * - Xboard (`cedar2025/Xboard`): `app/Http/Controllers/V1/Server/UniProxyController.php` (the five
 *   routes, the ETags, the push and alive bodies) and `app/Services/ServerService.php`
 *   (`buildNodeConfig`: the config per node type; `getAvailableUsers`: `id`, `uuid`, `speed_limit`,
 *   `device_limit`), `app/Services/DeviceStateService.php` (`getAliveList`: live addresses counted per
 *   user, 300 s).
 * - V2bX (`InazumaV/V2bX` and its maintained fork `wyx2685/V2bX`): `api/panel/node.go` (`CommonNode`,
 *   `VAllssNode`, `TrojanNode`, `ShadowsocksNode`, `BaseConfig`), `api/panel/user.go` (`UserInfo`,
 *   `UserListBody`, `AliveMap`, the push and alive bodies), `api/panel/panel.go` (the query).
 * - XrayR (`XrayR-project/XrayR`, before its sources were removed): `api/newV2board/model.go`
 *   (`serverConfig`, `user`) and `api/newV2board/v2board.go`.
 *
 * Where they differ, the reply satisfies both: `networkSettings` (camelCase, as Xboard sends it: V2bX
 * prefers it to `network_settings`, XrayR reads it) is always an object (V2bX unmarshals it into the
 * core's transport settings and fails on nothing); `tls_settings.xver` is left out (V2bX reads a
 * string, XrayR a number); `base_config`'s intervals are integers (XrayR reads `int`).
 */

/** `base_config`: how often the program pushes traffic and pulls config and users (seconds). */
export interface UniProxyBaseConfig {
  push_interval: number;
  pull_interval: number;
}

/** What every node type's config carries (V2bX `CommonNode`, Xboard's `$baseConfig`). */
interface UniProxyCommonConfig {
  protocol: 'vless' | 'vmess' | 'trojan';
  listen_ip: string;
  server_port: number;
  network: 'tcp' | 'ws' | 'grpc';
  /** The core's transport settings: `{}` (TCP), `{ path }` (WebSocket), `{ serviceName }` (gRPC). */
  networkSettings: { path?: string; serviceName?: string };
  host: string;
  server_name: string;
  /** 0: none, 1: TLS (the certificate is the program's own), 2: REALITY (not served). */
  tls: 0 | 1;
  tls_settings: { server_name?: string; allow_insecure?: boolean };
  /** Xboard's route rules (block, dns): none here. */
  routes: never[];
  base_config: UniProxyBaseConfig;
}

/** `GET /api/v1/server/UniProxy/config` for `vless`, `vmess` and `trojan`. */
export type UniProxyConfig = UniProxyCommonConfig & { flow?: string };

/** One user of `GET /api/v1/server/UniProxy/user` (V2bX `UserInfo`, XrayR `user`). */
export interface UniProxyUser {
  /** The slot's `number`: the integer the programs key traffic and live addresses by. */
  id: number;
  /** The VLESS / VMess id, or the Trojan password (the programs use this one field for both). */
  uuid: string;
  /** Mbit/s, 0: none. */
  speed_limit: number;
  /** Live addresses allowed, 0: no limit (not enforced through these programs yet). */
  device_limit: number;
}

export interface UniProxyUsers {
  users: UniProxyUser[];
}

/** `GET /api/v1/server/UniProxy/alivelist`: live addresses per user id (V2bX `AliveMap`). */
export interface UniProxyAliveList {
  alive: Record<string, number>;
}
