import { describe, expect, it } from 'vitest';
import { inboundChoices, inboundRequest, PROTOCOLS, SECURITIES, TRANSPORTS, VLESS_FLOWS } from './nodes.ts';

const REALITY_KEY = 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw';

const combinations = PROTOCOLS.flatMap((protocol) =>
  TRANSPORTS.flatMap((transport) => SECURITIES.map((security) => ({ protocol, transport, security }))),
);

/** An inbound as the form sends it: every field the choices offer filled in, the others null. */
function formBody(
  { protocol, transport, security }: (typeof combinations)[number],
  flow: string | null = null,
) {
  const offered = inboundChoices(protocol, transport, security);
  return {
    protocol,
    port: 443,
    transport,
    security,
    path: offered.path ? '/ray' : null,
    server_name: offered.serverName ? 'www.example.com' : null,
    reality_public_key: offered.reality ? REALITY_KEY : null,
    reality_short_id: offered.reality ? 'ab12' : null,
    flow,
    method: offered.method ? '2022-blake3-aes-128-gcm' : null,
  };
}

const accepted = (body: object) => inboundRequest.safeParse(body).success;

describe("the inbound form's choices", () => {
  it.each(combinations)(
    'offers $protocol over $transport with $security exactly when the schema takes it',
    (combination) => {
      const offered = inboundChoices(combination.protocol, combination.transport, combination.security);
      const isOffered =
        offered.transports.includes(combination.transport) &&
        offered.securities.includes(combination.security);
      expect(accepted(formBody(combination))).toBe(isOffered);
      if (!isOffered) return;
      // The flow when offered, and only then.
      for (const flow of VLESS_FLOWS) expect(accepted(formBody(combination, flow))).toBe(offered.flow);
      // The Shadowsocks method only where offered.
      if (!offered.method)
        expect(accepted({ ...formBody(combination), method: '2022-blake3-aes-128-gcm' })).toBe(false);
    },
  );

  it('offers at least one transport and security for every protocol', () => {
    for (const protocol of PROTOCOLS) {
      const transport = inboundChoices(protocol, 'tcp', 'none').transports[0];
      expect(transport).toBeDefined();
      const security = inboundChoices(protocol, transport ?? 'tcp', 'none').securities[0];
      expect(
        accepted(formBody({ protocol, transport: transport ?? 'tcp', security: security ?? 'none' })),
      ).toBe(true);
    }
  });
});
