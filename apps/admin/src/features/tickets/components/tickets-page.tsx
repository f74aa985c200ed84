import { Button, Card, Form, Input, InputNumber, Modal, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  TICKET_CATEGORIES,
  TICKET_PRIORITIES,
  TICKET_STATES,
  type TicketCategory,
  type TicketPriority,
  type TicketState,
} from '@skyway/shared/tickets';
import { Forbidden } from '../../../components/forbidden.tsx';
import { type ListColumn, PagedTable } from '../../../components/paged-table.tsx';
import { when } from '../../../lib/format.ts';
import { useCan } from '../../../lib/session.ts';
import { useChange } from '../../../lib/use-change.ts';
import { type StaffTicket, useTicketQueue } from '../api/list-tickets.ts';
import { deleteSavedReply, SAVED_REPLIES_KEY, saveReply, useSavedReplies } from '../api/saved-replies.ts';
import { TicketDrawer } from './ticket-drawer.tsx';
import { TicketTimesCard } from './ticket-times-card.tsx';

function SavedRepliesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['tickets', 'common']);
  const saved = useSavedReplies();
  const change = useChange(SAVED_REPLIES_KEY);
  const [form] = Form.useForm<{ title: string; body: string }>();
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('savedReplies')} width={640}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        {(saved.data?.items ?? []).map((reply) => (
          <Card
            key={reply.id}
            size="small"
            title={reply.title}
            extra={
              <Button size="small" danger onClick={() => void change(() => deleteSavedReply(reply.id))}>
                {t('common:delete')}
              </Button>
            }
          >
            <div style={{ whiteSpace: 'pre-wrap' }}>{reply.body}</div>
          </Card>
        ))}
        <Form
          form={form}
          layout="vertical"
          onFinish={(values) => void change(() => saveReply(values)).then(() => form.resetFields())}
        >
          <Form.Item name="title" label={t('savedTitle')} rules={[{ required: true, whitespace: true }]}>
            <Input maxLength={80} />
          </Form.Item>
          <Form.Item name="body" label={t('savedBody')} rules={[{ required: true, whitespace: true }]}>
            <Input.TextArea rows={4} />
          </Form.Item>
          <Button type="primary" htmlType="submit">
            {t('addSaved')}
          </Button>
        </Form>
      </Space>
    </Modal>
  );
}

/** The ticket queue (PRODUCT.md section 10): filters, the longest waiting first, a ticket opened beside it. */
export function TicketsPage() {
  const { t } = useTranslation('tickets');
  const can = useCan();
  const [filters, setFilters] = useState<Record<string, string | number | undefined>>({ state: 'open' });
  const [chosen, setChosen] = useState<string | null>(null);
  const [savedOpen, setSavedOpen] = useState(false);
  const list = useTicketQueue(filters);
  if (!can('tickets.view')) return <Forbidden />;

  const set = (key: string) => (value: string | number | null | undefined) =>
    setFilters((current) => ({ ...current, [key]: value ?? undefined }));
  const columns: ListColumn<StaffTicket>[] = [
    {
      title: t('subject'),
      dataIndex: 'subject',
      render: (_, ticket) => (
        <Button type="link" onClick={() => setChosen(ticket.id)} style={{ padding: 0 }}>
          {ticket.subject}
        </Button>
      ),
    },
    {
      title: t('customer'),
      dataIndex: 'customer',
      render: (_, ticket) => ticket.customer.email,
      csv: (ticket) => ticket.customer.email,
    },
    {
      title: t('categoryLabel'),
      dataIndex: 'category',
      render: (value: TicketCategory) => t(`category.${value}`),
    },
    {
      title: t('priorityLabel'),
      dataIndex: 'priority',
      render: (value: TicketPriority) => (
        <Tag color={value === 'high' ? 'red' : undefined}>{t(`priority.${value}`)}</Tag>
      ),
    },
    { title: t('stateLabel'), dataIndex: 'state', render: (value: TicketState) => t(`state.${value}`) },
    {
      title: t('assignee'),
      dataIndex: 'assignee',
      render: (_, ticket) => ticket.assignee?.email ?? '—',
      csv: (ticket) => ticket.assignee?.email,
    },
    { title: t('waitingSince'), dataIndex: 'waiting_since', render: (value: string | null) => when(value) },
    { title: t('lastMessage'), dataIndex: 'last_message_at', render: (value: string) => when(value) },
  ];

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle">
      <TicketTimesCard />
      <Card
        title={t('title')}
        extra={
          can('tickets.reply') && <Button onClick={() => setSavedOpen(true)}>{t('savedReplies')}</Button>
        }
      >
        <Space wrap style={{ marginBottom: 16 }}>
          <Select
            aria-label={t('stateLabel')}
            style={{ width: 160 }}
            value={filters.state}
            onChange={set('state')}
            options={TICKET_STATES.map((value) => ({ value, label: t(`state.${value}`) }))}
          />
          <Select
            aria-label={t('categoryLabel')}
            allowClear
            placeholder={t('categoryLabel')}
            style={{ width: 140 }}
            onChange={set('category')}
            options={TICKET_CATEGORIES.map((value) => ({ value, label: t(`category.${value}`) }))}
          />
          <Select
            aria-label={t('priorityLabel')}
            allowClear
            placeholder={t('priorityLabel')}
            style={{ width: 120 }}
            onChange={set('priority')}
            options={TICKET_PRIORITIES.map((value) => ({ value, label: t(`priority.${value}`) }))}
          />
          <Select
            aria-label={t('assignee')}
            allowClear
            placeholder={t('assignee')}
            style={{ width: 140 }}
            onChange={set('assignee')}
            options={[
              { value: 'me', label: t('mine') },
              { value: 'none', label: t('nobody') },
            ]}
          />
          <InputNumber
            aria-label={t('waitingHours')}
            min={1}
            placeholder={t('waitingHours')}
            style={{ width: 180 }}
            onChange={set('waiting_hours')}
          />
        </Space>
        <PagedTable list={list} columns={columns} width={1100} />
      </Card>
      {chosen && <TicketDrawer id={chosen} onClose={() => setChosen(null)} />}
      <SavedRepliesDialog open={savedOpen} onClose={() => setSavedOpen(false)} />
    </Space>
  );
}
