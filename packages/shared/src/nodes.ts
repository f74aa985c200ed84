// What a node serves (PRODUCT.md section 6): the protocols, transports and ciphers the back office
// offers, the subscription links describe and the node agent configures its core with.

export const PROTOCOLS = ['vless', 'vmess', 'trojan', 'shadowsocks'] as const;
export const TRANSPORTS = ['tcp', 'ws', 'grpc'] as const;
export const SECURITIES = ['none', 'tls', 'reality'] as const;
export const VLESS_FLOWS = ['xtls-rprx-vision'] as const;
/** Shadowsocks 2022 only: the older ciphers have known weaknesses. */
export const SS_METHODS = [
  '2022-blake3-aes-128-gcm',
  '2022-blake3-aes-256-gcm',
  '2022-blake3-chacha20-poly1305',
] as const;

/** Each Shadowsocks 2022 method's key length in bytes (SIP022): the server's key and each user's. */
export const SS_KEY_BYTES: Record<(typeof SS_METHODS)[number], number> = {
  '2022-blake3-aes-128-gcm': 16,
  '2022-blake3-aes-256-gcm': 32,
  '2022-blake3-chacha20-poly1305': 32,
};
