import { DeleteOutlined, EditOutlined, KeyOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Flex, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@skyway/shared/bytes';
import { useCoded } from '../../../lib/use-coded.ts';
import { when } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useCan } from '../../../lib/session.ts';
import { useChange } from '../../../lib/use-change.ts';
import { changedInbound, type Inbound, InboundModal } from './inbound-form.tsx';
import { NodeModal } from './node-form.tsx';
import { deleteInbound } from '../api/delete-inbound.ts';
import { deleteNode } from '../api/delete-node.ts';
import { issueNodeToken } from '../api/issue-node-token.ts';
import { type ListedNode, type Node, NODES_KEY, useNodes } from '../api/list-nodes.ts';
import { revokeNodeToken } from '../api/revoke-node-token.ts';
import { updateInbound } from '../api/save-inbound.ts';
import { setNodeEnabled } from '../api/set-node-enabled.ts';

/** A node as the list shows it: with what moved through it this period. */

type Dialog =
  { kind: 'node'; node: Node | null } | { kind: 'inbound'; node: Node; inbound: Inbound | null } | null;

/** What the node sent that was refused, one tag per kind, with when it last happened. */
function RefusalsCell(props: { node: ListedNode }) {
  const { t } = useTranslation(['nodes', 'common']);
  return (
    <Space size="small" wrap>
      {props.node.refusals.map((refusal) => (
        <Tooltip key={refusal.kind} title={t('nodeRefusalLast', { at: when(refusal.last_at) })}>
          <Tag color="red">{t(`nodeRefusal_${refusal.kind}`, { times: refusal.times })}</Tag>
        </Tooltip>
      ))}
    </Space>
  );
}

/** Enabled or not: a switch for those who may change it, a tag for the others. */
function EnabledCell(props: { on: boolean; label: string; onChange?: (on: boolean) => void }) {
  const { t } = useTranslation(['nodes', 'common']);
  if (props.onChange) {
    return <Switch size="small" checked={props.on} aria-label={props.label} onChange={props.onChange} />;
  }
  return props.on ? <Tag color="green">{t('enabled')}</Tag> : <Tag>{t('common:disabled')}</Tag>;
}

/** A row's edit and delete buttons; deleting asks first. */
function EditAndDelete(props: {
  onEdit: () => void;
  confirmTitle: string;
  confirmText: string;
  onDelete: () => Promise<unknown>;
}) {
  const { t } = useTranslation(['nodes', 'common']);
  const { modal } = App.useApp();
  const change = useChange(NODES_KEY);
  return (
    <Space size="small">
      <Tooltip title={t('common:edit')}>
        <Button size="small" icon={<EditOutlined />} aria-label={t('common:edit')} onClick={props.onEdit} />
      </Tooltip>
      <Tooltip title={t('common:delete')}>
        <Button
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('common:delete')}
          onClick={() =>
            modal.confirm({
              title: props.confirmTitle,
              content: props.confirmText,
              okText: t('common:delete'),
              okButtonProps: { danger: true },
              cancelText: t('common:cancel'),
              onOk: () => change(props.onDelete),
            })
          }
        />
      </Tooltip>
    </Space>
  );
}

const orNone = (none: string) => (value: string | null) => value ?? none;

/**
 * A node's agent: when it last called, and, for those who may change nodes, its API token: issued
 * (or rotated, the old one refused at once) and shown this once, or revoked.
 */
function AgentCell(props: { node: Node; editable: boolean }) {
  const { t } = useTranslation(['nodes', 'common']);
  const { modal } = App.useApp();
  const change = useChange(NODES_KEY);
  const { node } = props;
  const issue = () =>
    change(async () => {
      const { token } = await issueNodeToken(node.id);
      modal.info({
        title: t('nodeTokenTitle', { name: node.name }),
        content: (
          <>
            <Typography.Paragraph>{t('nodeTokenOnce')}</Typography.Paragraph>
            <Typography.Text code copyable data-testid="node-token">
              {token}
            </Typography.Text>
            <Typography.Paragraph style={{ marginTop: 16 }}>
              {t('nodeTokenUniProxy', { number: node.number })}
            </Typography.Paragraph>
          </>
        ),
      });
    });
  const seen = node.token_issued
    ? node.last_seen_at
      ? when(node.last_seen_at)
      : t('agentNever')
    : t('noToken');
  return (
    <Space size="small" wrap>
      <span>{seen}</span>
      {props.editable && (
        <Button
          size="small"
          icon={<KeyOutlined />}
          onClick={() =>
            node.token_issued
              ? modal.confirm({
                  title: t('rotateToken'),
                  content: t('rotateTokenConfirm', { name: node.name }),
                  okText: t('rotateToken'),
                  cancelText: t('common:cancel'),
                  onOk: issue,
                })
              : void issue()
          }
        >
          {node.token_issued ? t('rotateToken') : t('issueToken')}
        </Button>
      )}
      {props.editable && node.token_issued && (
        <Tooltip title={t('revokeToken')}>
          <Button
            size="small"
            danger
            icon={<StopOutlined />}
            aria-label={t('revokeToken')}
            onClick={() =>
              modal.confirm({
                title: t('revokeToken'),
                content: t('revokeTokenConfirm', { name: node.name }),
                okText: t('revokeToken'),
                okButtonProps: { danger: true },
                cancelText: t('common:cancel'),
                onOk: () => change(() => revokeNodeToken(node.id)),
              })
            }
          />
        </Tooltip>
      )}
    </Space>
  );
}

/** A node's inbounds, each with what may be changed in it. */
function InboundsTable(props: { node: Node; onEdit: (inbound: Inbound | null) => void }) {
  const { t } = useTranslation(['nodes', 'common']);
  const coded = useCoded();
  const can = useCan();
  const change = useChange(NODES_KEY);
  const editable = can('nodes.edit');
  const { node } = props;
  const columns: ColumnsType<Inbound> = [
    { title: t('protocol'), dataIndex: 'protocol', render: (value: string) => coded('protocol', value) },
    { title: t('port'), dataIndex: 'port' },
    { title: t('transport'), dataIndex: 'transport', render: (value: string) => coded('transport', value) },
    { title: t('path'), dataIndex: 'path', render: orNone(t('common:none')) },
    { title: t('security'), dataIndex: 'security', render: (value: string) => coded('security', value) },
    { title: t('serverName'), dataIndex: 'server_name', render: orNone(t('common:none')) },
    {
      // VLESS's flow and Shadowsocks 2022's method: an inbound has one or the other, or neither.
      title: t('flowOrMethod'),
      render: (_, inbound) => inbound.flow ?? inbound.method ?? t('common:none'),
    },
    {
      title: t('enabled'),
      dataIndex: 'enabled',
      render: (on: boolean, inbound) => (
        <EnabledCell
          on={on}
          label={`${t('enabled')} ${coded('protocol', inbound.protocol)} ${inbound.port}`}
          onChange={
            editable
              ? (enabled) =>
                  void change(() => updateInbound(inbound.id, changedInbound(inbound, { enabled })))
              : undefined
          }
        />
      ),
    },
    { title: t('sortOrder'), dataIndex: 'sort_order' },
  ];
  if (editable) {
    columns.push({
      key: 'actions',
      render: (_, inbound) => (
        <EditAndDelete
          onEdit={() => props.onEdit(inbound)}
          confirmTitle={t('deleteInbound')}
          confirmText={t('deleteInboundConfirm', {
            protocol: coded('protocol', inbound.protocol),
            port: inbound.port,
            name: node.name,
          })}
          onDelete={() => deleteInbound(inbound.id)}
        />
      ),
    });
  }
  return (
    <div data-testid={`inbounds-${node.name}`}>
      {editable && (
        <Flex style={{ marginBottom: 8 }}>
          <Button size="small" icon={<PlusOutlined />} onClick={() => props.onEdit(null)}>
            {t('addInbound')}
          </Button>
        </Flex>
      )}
      <Table<Inbound>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={node.inbounds}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('noInbounds') }}
      />
    </div>
  );
}

/**
 * The proxy nodes, in the operator's order, each with its inbounds below it. Every role sees them;
 * owners and admins add, change, switch off and delete them (the server refuses the others anyway).
 */
export function NodesPage() {
  const { t } = useTranslation(['nodes', 'common']);
  const coded = useCoded();
  const can = useCan();
  const change = useChange(NODES_KEY);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const result = useNodes(can('nodes.view'));
  if (!can('nodes.view')) return <Forbidden />;
  const editable = can('nodes.edit');
  const nodes = result.data ?? [];
  const close = () => setDialog(null);
  const columns: ColumnsType<ListedNode> = [
    { title: t('nodeNumber'), dataIndex: 'number' },
    { title: t('common:nodeName'), dataIndex: 'name' },
    { title: t('region'), dataIndex: 'region' },
    { title: t('host'), dataIndex: 'host' },
    {
      title: t('enabled'),
      dataIndex: 'enabled',
      render: (on: boolean, node) => (
        <EnabledCell
          on={on}
          label={`${t('enabled')} ${node.name}`}
          onChange={editable ? (enabled) => void change(() => setNodeEnabled(node.id, enabled)) : undefined}
        />
      ),
    },
    { title: t('sortOrder'), dataIndex: 'sort_order' },
    {
      title: t('periods'),
      dataIndex: 'periods',
      render: (periods: string[] | null) =>
        periods ? periods.map((period) => coded('period', period)).join(', ') : t('allPlans'),
    },
    { title: t('minConnections'), dataIndex: 'min_connections' },
    { title: t('ratePercent'), dataIndex: 'rate_percent', render: (rate: number) => `${rate}%` },
    { title: t('inboundCount'), render: (_, node) => node.inbounds.length },
    {
      title: t('trafficThisPeriod'),
      key: 'traffic',
      render: (_, node) => `↑ ${formatBytes(node.traffic.upload)} · ↓ ${formatBytes(node.traffic.download)}`,
    },
    { title: t('lineMbps'), dataIndex: 'line_mbps' },
    { title: t('nodeRefusals'), key: 'refusals', render: (_, node) => <RefusalsCell node={node} /> },
    { title: t('agent'), key: 'agent', render: (_, node) => <AgentCell node={node} editable={editable} /> },
  ];
  if (editable) {
    columns.push({
      key: 'actions',
      render: (_, node) => (
        <EditAndDelete
          onEdit={() => setDialog({ kind: 'node', node })}
          confirmTitle={t('deleteNode')}
          confirmText={t('deleteNodeConfirm', { name: node.name, count: node.inbounds.length })}
          onDelete={() => deleteNode(node.id)}
        />
      ),
    });
  }
  return (
    <Card
      title={t('common:nodes')}
      extra={
        editable && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDialog({ kind: 'node', node: null })}
          >
            {t('addNode')}
          </Button>
        )
      }
    >
      {result.error && <Alert type="error" title={result.error.message} style={{ marginBottom: 16 }} />}
      <Table<ListedNode>
        rowKey="id"
        size="small"
        loading={result.isFetching}
        pagination={false}
        dataSource={nodes}
        columns={columns}
        scroll={{ x: 'max-content' }}
        data-testid="nodes"
        expandable={{
          expandedRowKeys: nodes.filter((node) => !collapsed.has(node.id)).map((node) => node.id),
          onExpand: (open, node) =>
            setCollapsed((current) => {
              const next = new Set(current);
              if (open) next.delete(node.id);
              else next.add(node.id);
              return next;
            }),
          expandedRowRender: (node) => (
            <InboundsTable node={node} onEdit={(inbound) => setDialog({ kind: 'inbound', node, inbound })} />
          ),
        }}
      />
      {dialog?.kind === 'node' && <NodeModal open node={dialog.node} onClose={close} />}
      {dialog?.kind === 'inbound' && (
        <InboundModal open node={dialog.node} inbound={dialog.inbound} onClose={close} />
      )}
    </Card>
  );
}
