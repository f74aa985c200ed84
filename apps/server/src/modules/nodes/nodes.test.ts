import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedInStaff, signedInStaff } from '../../testing/staff.ts';
import { useTestApp } from '../../testing/test-app.ts';

const REALITY_KEY = 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw';

describe('nodes and inbounds in the back office', () => {
  const t = useTestApp();
  let admin: SignedInStaff;
  beforeAll(async () => {
    admin = await signedInStaff(t.app, t.database, 'admin');
  });

  const newNode = async (body: object = {}) =>
    (
      await admin.call('POST', '/nodes', {
        name: 'Hong Kong 1',
        region: 'HK',
        host: 'hk1.example.com',
        ...body,
      })
    ).json();

  it('registers a node with its inbounds, lists them in the operator’s order, and changes it', async () => {
    const created = await newNode({ sort_order: -5, periods: ['year'], min_connections: 2 });
    expect(created).toMatchObject({
      code: 200,
      data: { name: 'Hong Kong 1', enabled: true, periods: ['year'], min_connections: 2, inbounds: [] },
    });
    const id = created.data.id as string;
    const inbounds = [
      {
        protocol: 'vless',
        port: 443,
        transport: 'tcp',
        security: 'reality',
        server_name: 'www.microsoft.com',
        flow: 'xtls-rprx-vision',
        reality_public_key: REALITY_KEY,
        reality_short_id: '6ba85179e30d4fc2',
      },
      { protocol: 'vmess', port: 8080, transport: 'ws', path: '/ray', security: 'none' },
      {
        protocol: 'trojan',
        port: 8443,
        transport: 'grpc',
        path: 'skyway',
        security: 'tls',
        server_name: 'hk1.example.com',
      },
      {
        protocol: 'shadowsocks',
        port: 8388,
        transport: 'tcp',
        security: 'none',
        method: '2022-blake3-aes-256-gcm',
      },
    ];
    for (const inbound of inbounds) {
      expect((await admin.call('POST', `/nodes/${id}/inbounds`, inbound)).json()).toMatchObject({
        code: 200,
        data: inbound,
      });
    }
    const listed = (await admin.call('GET', '/nodes')).json().data as {
      id: string;
      inbounds: { port: number }[];
    }[];
    expect(listed[0]?.id).toBe(id);
    expect(listed[0]?.inbounds.map((inbound) => inbound.port)).toEqual([443, 8080, 8388, 8443]);
    const changed = await admin.call('PATCH', `/nodes/${id}`, { enabled: false, periods: null });
    expect(changed.json().data).toMatchObject({ enabled: false, periods: null, name: 'Hong Kong 1' });
  });

  it('refuses inbounds whose protocol, transport and TLS do not go together, and changes nothing', async () => {
    const id = (await newNode()).data.id as string;
    const refused = [
      [
        { protocol: 'vless', port: 443, transport: 'tcp', security: 'reality', server_name: 'a.example.com' },
        'reality_public_key',
      ],
      [
        {
          protocol: 'vmess',
          port: 443,
          transport: 'ws',
          security: 'reality',
          server_name: 'a.example.com',
          reality_public_key: REALITY_KEY,
        },
        'security',
      ],
      [{ protocol: 'trojan', port: 443, transport: 'tcp', security: 'none' }, 'security'],
      [{ protocol: 'shadowsocks', port: 8388, transport: 'tcp', security: 'none' }, 'method'],
      [{ protocol: 'vmess', port: 80, transport: 'ws', security: 'none' }, 'path'],
      [
        {
          protocol: 'vless',
          port: 443,
          transport: 'ws',
          path: '/x',
          security: 'tls',
          flow: 'xtls-rprx-vision',
        },
        'flow',
      ],
      [{ protocol: 'vless', port: 70_000, transport: 'tcp', security: 'none' }, 'port'],
      [{ protocol: 'wireguard', port: 51820, transport: 'tcp', security: 'none' }, 'protocol'],
    ] as const;
    for (const [body, field] of refused) {
      expect(
        (await admin.call('POST', `/nodes/${id}/inbounds`, body)).json(),
        JSON.stringify(body),
      ).toMatchObject({
        code: 400,
        data: { field },
      });
    }
    const node = (
      (await admin.call('GET', '/nodes')).json().data as { id: string; inbounds: unknown[] }[]
    ).find((n) => n.id === id);
    expect(node?.inbounds).toEqual([]);
    expect(
      (await admin.call('POST', '/nodes', { name: 'x', region: 'HK', host: 'not a host!' })).json(),
    ).toMatchObject({
      code: 400,
      data: { field: 'host' },
    });
  });

  it('changes an inbound as a whole, removes it and the node, and answers 404 for what is gone', async () => {
    const id = (await newNode()).data.id as string;
    const inbound = (
      await admin.call('POST', `/nodes/${id}/inbounds`, {
        protocol: 'vmess',
        port: 8080,
        transport: 'tcp',
        security: 'none',
      })
    ).json().data;
    const changed = await admin.call('PATCH', `/inbounds/${inbound.id}`, {
      protocol: 'vmess',
      port: 9090,
      transport: 'tcp',
      security: 'tls',
      server_name: 'hk1.example.com',
    });
    expect(changed.json().data).toMatchObject({ port: 9090, security: 'tls' });
    expect((await admin.call('DELETE', `/inbounds/${inbound.id}`)).json().code).toBe(200);
    expect((await admin.call('DELETE', `/inbounds/${inbound.id}`)).json().code).toBe(404);
    expect((await admin.call('DELETE', `/nodes/${id}`)).json().code).toBe(200);
    expect((await admin.call('PATCH', `/nodes/${id}`, { enabled: true })).json().code).toBe(404);
    expect(
      (
        await admin.call('POST', `/nodes/${id}/inbounds`, {
          protocol: 'vmess',
          port: 1,
          transport: 'tcp',
          security: 'none',
        })
      ).json().code,
    ).toBe(404);
  });
});
