import { useQueryClient } from '@tanstack/react-query';
import { Col, Form, type FormInstance, Input, InputNumber, Row, Select, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  inboundChoices,
  PROTOCOLS,
  type inboundRequest,
  type inboundSchema,
  SS_METHODS,
  VLESS_FLOWS,
} from '@skyway/shared/schemas/admin/nodes';
import { useCoded } from '../../../lib/use-coded.ts';
import { FormModal } from '../../../components/form-modal.tsx';
import { NODES_KEY, type Node } from '../api/list-nodes.ts';
import { addInbound, updateInbound } from '../api/save-inbound.ts';

export type Inbound = z.infer<typeof inboundSchema>;
type InboundBody = z.infer<typeof inboundRequest>;
type Protocol = InboundBody['protocol'];
type Transport = InboundBody['transport'];
type Security = InboundBody['security'];

/** No flow: the select's own value for null. */
const NO_FLOW = 'none';

interface InboundValues {
  protocol: Protocol;
  port: number;
  transport: Transport;
  security: Security;
  path?: string | null;
  server_name?: string | null;
  reality_public_key?: string | null;
  reality_short_id?: string | null;
  flow: string;
  method: string;
  enabled: boolean;
  sort_order: number;
}

const text = (value: string | null | undefined) => value?.trim() || null;

/** The inbound as the server takes it: what the choices do not offer is null. */
function inboundBody(values: InboundValues): InboundBody {
  const offered = inboundChoices(values.protocol, values.transport, values.security);
  return {
    protocol: values.protocol,
    port: values.port,
    transport: values.transport,
    security: values.security,
    path: offered.path ? text(values.path) : null,
    server_name: offered.serverName ? text(values.server_name) : null,
    reality_public_key: offered.reality ? text(values.reality_public_key) : null,
    reality_short_id: offered.reality ? text(values.reality_short_id) : null,
    flow: offered.flow && values.flow !== NO_FLOW ? (values.flow as InboundBody['flow']) : null,
    method: offered.method ? (values.method as InboundBody['method']) : null,
    enabled: values.enabled,
    sort_order: values.sort_order,
  };
}

/** A stored inbound with one change, as the server takes it (an inbound is changed as a whole). */
export function changedInbound(inbound: Inbound, change: Partial<InboundBody>) {
  const body: Partial<Inbound> = { ...inbound, ...change };
  delete body.id;
  return body;
}

const valuesOf = (inbound: Inbound | null): InboundValues => ({
  protocol: inbound?.protocol ?? 'vless',
  port: inbound?.port ?? 443,
  transport: inbound?.transport ?? 'tcp',
  security: inbound?.security ?? 'tls',
  path: inbound?.path,
  server_name: inbound?.server_name,
  reality_public_key: inbound?.reality_public_key,
  reality_short_id: inbound?.reality_short_id,
  flow: inbound?.flow ?? NO_FLOW,
  method: inbound?.method ?? '2022-blake3-aes-256-gcm',
  enabled: inbound?.enabled ?? true,
  sort_order: inbound?.sort_order ?? 0,
});

/**
 * A change of protocol or transport keeps the transport and security when they still go with it,
 * else takes the first that does: the form never holds a combination the server refuses.
 */
function settle(form: FormInstance<InboundValues>, changed: Partial<InboundValues>, all: InboundValues) {
  if (!('protocol' in changed || 'transport' in changed)) return;
  const { protocol } = all;
  const transports = inboundChoices(protocol, all.transport, all.security).transports;
  const transport = transports.includes(all.transport) ? all.transport : (transports[0] ?? 'tcp');
  const securities = inboundChoices(protocol, transport, all.security).securities;
  const security = securities.includes(all.security) ? all.security : (securities[0] ?? 'none');
  if (transport !== all.transport || security !== all.security) form.setFieldsValue({ transport, security });
}

/** Half the form's width on a wide screen: the form's fields go two by two. */
const Half = ({ children }: { children: ReactNode }) => (
  <Col xs={24} sm={12}>
    {children}
  </Col>
);

/** The fields that depend on the protocol, transport and security: only those that go with them. */
function ChoiceFields({ form }: { form: FormInstance<InboundValues> }) {
  const { t } = useTranslation(['nodes', 'common']);
  const coded = useCoded();
  const security = form.getFieldValue('security') as Security;
  const offered = inboundChoices(
    form.getFieldValue('protocol') as Protocol,
    form.getFieldValue('transport') as Transport,
    security,
  );
  const required = { required: true, whitespace: true, message: t('common:required') };
  return (
    <>
      <Half>
        <Form.Item name="transport" label={t('transport')}>
          <Select
            options={offered.transports.map((value) => ({ value, label: coded('transport', value) }))}
          />
        </Form.Item>
      </Half>
      {offered.path && (
        <Half>
          <Form.Item name="path" label={t('path')} extra={t('pathHint')} rules={[required]}>
            <Input maxLength={200} autoComplete="off" />
          </Form.Item>
        </Half>
      )}
      <Half>
        <Form.Item name="security" label={t('security')}>
          <Select options={offered.securities.map((value) => ({ value, label: coded('security', value) }))} />
        </Form.Item>
      </Half>
      {offered.serverName && (
        <Half>
          <Form.Item
            name="server_name"
            label={t('serverName')}
            extra={security === 'reality' ? t('serverNameRealityHint') : t('serverNameHint')}
            rules={security === 'reality' ? [required] : []}
          >
            <Input maxLength={253} autoComplete="off" />
          </Form.Item>
        </Half>
      )}
      {offered.reality && (
        <>
          <Half>
            <Form.Item name="reality_public_key" label={t('realityPublicKey')} rules={[required]}>
              <Input autoComplete="off" />
            </Form.Item>
          </Half>
          <Half>
            <Form.Item name="reality_short_id" label={t('realityShortId')} extra={t('realityShortIdHint')}>
              <Input maxLength={16} autoComplete="off" />
            </Form.Item>
          </Half>
        </>
      )}
      {offered.flow && (
        <Half>
          <Form.Item name="flow" label={t('flow')}>
            <Select
              options={[
                { value: NO_FLOW, label: t('noFlow') },
                ...VLESS_FLOWS.map((value) => ({ value, label: value })),
              ]}
            />
          </Form.Item>
        </Half>
      )}
      {offered.method && (
        <Half>
          <Form.Item name="method" label={t('method')}>
            <Select options={SS_METHODS.map((value) => ({ value, label: value }))} />
          </Form.Item>
        </Half>
      )}
    </>
  );
}

/** Adds an inbound to a node, or changes one as a whole (its protocol, transport and TLS go together). */
export function InboundModal(props: {
  open: boolean;
  node: Node;
  inbound: Inbound | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['nodes', 'common']);
  const coded = useCoded();
  const client = useQueryClient();
  const [form] = Form.useForm<InboundValues>();
  const { inbound, node } = props;
  return (
    <FormModal
      open={props.open}
      title={`${inbound ? t('editInbound') : t('addInbound')} · ${node.name}`}
      width={640}
      form={form}
      initialValues={valuesOf(inbound)}
      onClose={props.onClose}
      onValuesChange={(changed, all) => settle(form, changed, all)}
      testId="inbound-form"
      onSubmit={async (values) => {
        const body = inboundBody(values);
        await (inbound ? updateInbound(inbound.id, body) : addInbound(node.id, body));
        await client.invalidateQueries({ queryKey: NODES_KEY });
      }}
    >
      <Row gutter={16}>
        <Half>
          <Form.Item name="protocol" label={t('protocol')}>
            <Select options={PROTOCOLS.map((value) => ({ value, label: coded('protocol', value) }))} />
          </Form.Item>
        </Half>
        <Half>
          <Form.Item
            name="port"
            label={t('port')}
            rules={[{ required: true, message: t('common:required') }]}
          >
            <InputNumber min={1} max={65_535} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Half>
        <Form.Item
          noStyle
          shouldUpdate={(before: InboundValues, after: InboundValues) =>
            before.protocol !== after.protocol ||
            before.transport !== after.transport ||
            before.security !== after.security
          }
        >
          {() => <ChoiceFields form={form} />}
        </Form.Item>
        <Half>
          <Form.Item
            name="sort_order"
            label={t('sortOrder')}
            extra={t('sortOrderHint')}
            rules={[{ required: true, message: t('common:required') }]}
          >
            <InputNumber min={-1000} max={1000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Half>
        <Half>
          <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Half>
      </Row>
    </FormModal>
  );
}
