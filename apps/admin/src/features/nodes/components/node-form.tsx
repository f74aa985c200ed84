import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { PERIOD_NAMES, type Period } from '@skyway/shared/plans';
import type { nodeCreateRequest } from '@skyway/shared/schemas/admin/nodes';
import { NODES_KEY, type Node } from '../api/list-nodes.ts';
import { saveNode } from '../api/save-node.ts';
import { FormModal } from '../../../components/form-modal.tsx';

type NodeBody = z.infer<typeof nodeCreateRequest>;
/** The form's values: no plan chosen means every plan (sent as null). */
type NodeValues = Omit<NodeBody, 'periods'> & { periods: Period[] };

const valuesOf = (node: Node | null): NodeValues =>
  node
    ? {
        name: node.name,
        region: node.region,
        host: node.host,
        enabled: node.enabled,
        sort_order: node.sort_order,
        periods: (node.periods ?? []) as Period[],
        min_connections: node.min_connections,
        rate_percent: node.rate_percent,
        line_mbps: node.line_mbps,
      }
    : {
        name: '',
        region: '',
        host: '',
        enabled: true,
        sort_order: 0,
        periods: [],
        min_connections: 1,
        rate_percent: 100,
        line_mbps: 10_000,
      };

/** Registers a node, or changes one: its name, region, the host clients dial, and who may use it. */
export function NodeModal(props: { open: boolean; node: Node | null; onClose: () => void }) {
  const { t } = useTranslation(['nodes', 'common']);
  const client = useQueryClient();
  const [form] = Form.useForm<NodeValues>();
  const { node } = props;
  const required = { required: true, whitespace: true, message: t('common:required') };
  return (
    <FormModal
      open={props.open}
      title={node ? t('editNode') : t('addNode')}
      form={form}
      initialValues={valuesOf(node)}
      onClose={props.onClose}
      testId="node-form"
      onSubmit={async (values) => {
        const body: NodeBody = { ...values, periods: values.periods.length > 0 ? values.periods : null };
        await saveNode(node?.id, body);
        await client.invalidateQueries({ queryKey: NODES_KEY });
      }}
    >
      <Form.Item name="name" label={t('common:nodeName')} rules={[required]}>
        <Input maxLength={64} autoComplete="off" />
      </Form.Item>
      <Form.Item name="region" label={t('region')} rules={[required]}>
        <Input maxLength={32} autoComplete="off" />
      </Form.Item>
      <Form.Item name="host" label={t('host')} extra={t('hostHint')} rules={[required]}>
        <Input maxLength={253} autoComplete="off" />
      </Form.Item>
      <Form.Item name="periods" label={t('periods')} extra={t('periodsHint')}>
        <Select
          mode="multiple"
          allowClear
          placeholder={t('allPlans')}
          options={PERIOD_NAMES.map((period) => ({ value: period, label: t(`common:period_${period}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="min_connections"
        label={t('minConnections')}
        extra={t('minConnectionsHint')}
        rules={[{ required: true, message: t('common:required') }]}
      >
        <InputNumber min={1} max={1000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="rate_percent"
        label={t('ratePercent')}
        extra={t('ratePercentHint')}
        rules={[{ required: true, message: t('common:required') }]}
      >
        <InputNumber min={0} max={10_000} precision={0} suffix="%" style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="line_mbps"
        label={t('lineMbps')}
        extra={t('lineMbpsHint')}
        rules={[{ required: true, message: t('common:required') }]}
      >
        <InputNumber min={1} max={1_000_000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="sort_order"
        label={t('sortOrder')}
        extra={t('sortOrderHint')}
        rules={[{ required: true, message: t('common:required') }]}
      >
        <InputNumber min={-1000} max={1000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormModal>
  );
}
