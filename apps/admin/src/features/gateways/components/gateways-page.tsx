import { DownOutlined, PlusOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Dropdown, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GATEWAY_KINDS, type GatewayKind, type GatewayMethod } from '@skyway/shared/schemas/admin/gateways';
import { when } from '../../../lib/format.ts';
import { inCurrentLanguage } from '../../../lib/i18n.ts';
import { EditButton } from '../../../components/edit-button.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useCan } from '../../../lib/session.ts';
import { useChange } from '../../../lib/use-change.ts';
import { type Gateway, GATEWAYS_KEY, useGateways } from '../api/list-gateways.ts';
import { updateGateway } from '../api/save-gateway.ts';
import { testGateway } from '../api/test-gateway.ts';
import { GatewayModal } from './gateway-form.tsx';

/** A gateway's name as buyers of the member's language see it (English should that one be missing). */
const nameOf = (gateway: Gateway) => inCurrentLanguage(gateway.names);

/** A fee in basis points as a percentage (150 → 1.5%). */
const percent = (bps: number) => `${bps / 100}%`;

/** Undefined: closed; a kind without a gateway: a new one of that kind. */
type Editing = { kind: GatewayKind; gateway: Gateway | null } | undefined;

/**
 * Tries a gateway's keys against the gateway and says what it answered: keys accepted, refused, or
 * the gateway not reached, with the gateway's own words.
 */
function TestKeysButton(props: { gateway: Gateway }) {
  const { t } = useTranslation(['gateways', 'common']);
  const { modal, message } = App.useApp();
  const [testing, setTesting] = useState(false);
  const { gateway } = props;
  const test = async () => {
    setTesting(true);
    try {
      const answer = await testGateway(gateway.id);
      const show = { ok: modal.success, keys_refused: modal.error, unreachable: modal.warning }[
        answer.result
      ];
      show({
        title: t('testTitle', { name: nameOf(gateway) }),
        content: (
          <div data-testid="gateway-test-result">
            <Typography.Paragraph strong>{t(`test_${answer.result}`)}</Typography.Paragraph>
            {answer.message && (
              <Typography.Paragraph type="secondary" style={{ overflowWrap: 'anywhere' }}>
                {t('gatewaySaid', { message: answer.message })}
              </Typography.Paragraph>
            )}
          </div>
        ),
      });
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setTesting(false);
    }
  };
  return (
    <Button
      size="small"
      icon={<SafetyCertificateOutlined />}
      loading={testing}
      disabled={!gateway.keys_set}
      onClick={() => void test()}
    >
      {t('testKeys')}
    </Button>
  );
}

/**
 * The payment gateways buyers pay through (Epay, Alipay face-to-face, USDT), in the buy page's
 * order: added, changed, switched on or off and their keys tried, by owners and finance.
 */
export function GatewaysPage() {
  const { t } = useTranslation(['gateways', 'common']);
  const can = useCan();
  const change = useChange(GATEWAYS_KEY);
  const [editing, setEditing] = useState<Editing>(undefined);
  const allowed = can('gateways.edit');
  const result = useGateways(allowed);
  if (!allowed) return <Forbidden />;
  const columns: ColumnsType<Gateway> = [
    { title: t('name'), key: 'name', render: (_, gateway) => nameOf(gateway) },
    { title: t('kind'), dataIndex: 'kind', render: (kind: GatewayKind) => t(`kind_${kind}`) },
    {
      title: t('methods'),
      dataIndex: 'methods',
      render: (methods: GatewayMethod[]) => (
        <Space size={4} wrap>
          {methods.map((method) => (
            <Tag key={method}>{t(`method_${method}`)}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('fee'),
      dataIndex: 'fee_bps',
      render: (bps: number | null) => (bps === null ? t('noFee') : percent(bps)),
    },
    { title: t('position'), dataIndex: 'position' },
    {
      title: t('enabled'),
      dataIndex: 'enabled',
      render: (on: boolean, gateway) => (
        <Switch
          size="small"
          checked={on}
          aria-label={`${t('enabled')} ${nameOf(gateway)}`}
          onChange={(enabled) => void change(() => updateGateway(gateway.id, { enabled }))}
        />
      ),
    },
    {
      title: t('keys'),
      dataIndex: 'keys_set',
      render: (set: boolean) =>
        set ? <Tag color="green">{t('keysSet')}</Tag> : <Tag color="red">{t('keysMissing')}</Tag>,
    },
    { title: t('updatedAt'), dataIndex: 'updated_at', render: when },
    {
      key: 'actions',
      fixed: 'right',
      render: (_, gateway) => (
        <Space size="small">
          <EditButton onClick={() => setEditing({ kind: gateway.kind, gateway })} />
          <TestKeysButton gateway={gateway} />
        </Space>
      ),
    },
  ];
  return (
    <Card
      title={t('gateways')}
      extra={
        <Dropdown
          trigger={['click']}
          menu={{
            items: GATEWAY_KINDS.map((kind) => ({ key: kind, label: t(`kind_${kind}`) })),
            onClick: ({ key }) => setEditing({ kind: key as GatewayKind, gateway: null }),
          }}
        >
          <Button type="primary" icon={<PlusOutlined />}>
            {t('addGateway')} <DownOutlined />
          </Button>
        </Dropdown>
      }
    >
      <Typography.Paragraph type="secondary">{t('gatewaysHint')}</Typography.Paragraph>
      {result.error && <Alert type="error" title={result.error.message} style={{ marginBottom: 16 }} />}
      <Table<Gateway>
        rowKey="id"
        size="small"
        loading={result.isFetching}
        pagination={false}
        dataSource={result.data ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('noGateways') }}
        data-testid="gateways"
      />
      {editing && (
        <GatewayModal kind={editing.kind} gateway={editing.gateway} onClose={() => setEditing(undefined)} />
      )}
    </Card>
  );
}
