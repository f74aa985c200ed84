import { PaperClipOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Drawer,
  Form,
  Input,
  Select,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TICKET_MESSAGE_MAX } from '@skyway/shared/tickets';
import { saveFile } from '../../../lib/download.ts';
import { money, when } from '../../../lib/format.ts';
import { useCan, useSession } from '../../../lib/session.ts';
import { assignTicket, closeTicket, downloadTicketImage, replyToTicket } from '../api/change-ticket.ts';
import { type StaffTicketThread, useTicket } from '../api/get-ticket.ts';
import { TICKETS_KEY } from '../api/list-tickets.ts';
import { useSavedReplies } from '../api/saved-replies.ts';
import { useTicketCustomer } from '../api/ticket-customer.ts';

function Thread({ ticket }: { ticket: StaffTicketThread }) {
  const { t } = useTranslation('tickets');
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {ticket.messages.map((message) => (
        <Card
          key={message.id}
          size="small"
          title={
            <Space>
              {message.from === 'customer' ? t('customer') : (message.staff?.email ?? t('staff'))}
              {message.internal && <Tag color="gold">{t('internalNote')}</Tag>}
            </Space>
          }
          extra={when(message.created_at)}
          style={message.internal ? { background: '#fffbe6' } : undefined}
        >
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
            {message.body}
          </Typography.Paragraph>
          {message.attachments.map((attachment, index) => (
            <Button
              key={attachment.id}
              type="link"
              icon={<PaperClipOutlined />}
              onClick={() =>
                void downloadTicketImage(attachment.id).then((blob) =>
                  saveFile(`ticket-image-${index + 1}`, attachment.mime.split('/')[1] ?? 'img', blob),
                )
              }
            >
              {t('image', { number: index + 1 })}
            </Button>
          ))}
        </Card>
      ))}
    </Space>
  );
}

function ReplyForm({ ticket }: { ticket: StaffTicketThread }) {
  const { t } = useTranslation('tickets');
  const { message } = App.useApp();
  const client = useQueryClient();
  const saved = useSavedReplies();
  const [form] = Form.useForm<{ message: string; internal: boolean; wait_for_customer: boolean }>();
  const [sending, setSending] = useState(false);

  async function submit(values: { message: string; internal: boolean; wait_for_customer: boolean }) {
    setSending(true);
    try {
      client.setQueryData(['/tickets', ticket.id], await replyToTicket(ticket.id, values));
      form.resetFields();
      message.success(values.internal ? t('noted') : t('replied'));
      await client.invalidateQueries({ queryKey: TICKETS_KEY });
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ internal: false, wait_for_customer: false }}
      onFinish={(values) => void submit(values)}
    >
      <Select
        style={{ width: '100%', marginBottom: 8 }}
        placeholder={t('savedReply')}
        aria-label={t('savedReply')}
        value={null}
        options={(saved.data?.items ?? []).map((reply) => ({ value: reply.id, label: reply.title }))}
        onChange={(id) => {
          const reply = saved.data?.items.find((item) => item.id === id);
          if (reply) form.setFieldValue('message', reply.body);
        }}
      />
      <Form.Item
        name="message"
        label={t('reply')}
        rules={[{ required: true, whitespace: true, message: t('replyRequired') }]}
      >
        <Input.TextArea rows={5} maxLength={TICKET_MESSAGE_MAX} />
      </Form.Item>
      <Form.Item name="internal" valuePropName="checked" noStyle>
        <Checkbox>{t('internal')}</Checkbox>
      </Form.Item>
      <Form.Item name="wait_for_customer" valuePropName="checked" noStyle>
        <Checkbox>{t('waitForCustomer')}</Checkbox>
      </Form.Item>
      <div style={{ marginTop: 12 }}>
        <Button type="primary" htmlType="submit" loading={sending}>
          {t('send')}
        </Button>
      </div>
    </Form>
  );
}

function CustomerPanel({ userId }: { userId: string }) {
  const { t } = useTranslation('tickets');
  const can = useCan();
  const customer = useTicketCustomer(userId, can('users.view'));
  if (!customer.data) return null;
  const { account, devices, orders, payments } = customer.data;
  return (
    <Card size="small" title={t('customerPanel')}>
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('email')}>{account.email}</Descriptions.Item>
        <Descriptions.Item label={t('accessEnds')}>{when(account.expire_at)}</Descriptions.Item>
        <Descriptions.Item label={t('connections')}>{account.connections}</Descriptions.Item>
        <Descriptions.Item label={t('devices')}>
          {devices
            .map((device) => `${device.position}. ${device.name ?? device.platform ?? '—'}`)
            .join(', ') || '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('orders')}>
          {orders
            .map((order) => `${order.id} ${order.status} ${money(order.amount, order.currency)}`)
            .join('; ') || '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('payments')}>
          {payments
            .map(
              (payment) =>
                `${payment.provider} ${payment.outcome} ${money(payment.amount, payment.currency)}`,
            )
            .join('; ') || '—'}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** A ticket for staff: the thread with its notes, the reply form, assignment and closing, and the customer beside it. */
export function TicketDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation(['tickets', 'common']);
  const can = useCan();
  const session = useSession();
  const client = useQueryClient();
  const { message } = App.useApp();
  const ticket = useTicket(id);
  const mayReply = can('tickets.reply');

  async function act(work: () => Promise<StaffTicketThread>) {
    try {
      client.setQueryData(['/tickets', id], await work());
      message.success(t('common:done'));
      await client.invalidateQueries({ queryKey: TICKETS_KEY });
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    }
  }

  const data = ticket.data;
  const me = session.data?.staff.id;
  return (
    <Drawer open width={760} onClose={onClose} title={data?.subject ?? ''}>
      {data && (
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <Space wrap>
            <Tag>{t(`state.${data.state}`)}</Tag>
            <Tag>{t(`category.${data.category}`)}</Tag>
            <Tag>{t(`priority.${data.priority}`)}</Tag>
            <span>
              {t('assignee')}: {data.assignee?.email ?? t('nobody')}
            </span>
            {mayReply && me && data.assignee?.id !== me && (
              <Button size="small" onClick={() => void act(() => assignTicket(id, me))}>
                {t('takeIt')}
              </Button>
            )}
            {mayReply && data.state !== 'closed' && (
              <Button size="small" danger onClick={() => void act(() => closeTicket(id))}>
                {t('close')}
              </Button>
            )}
          </Space>
          <CustomerPanel userId={data.customer.id} />
          <Thread ticket={data} />
          {mayReply && <ReplyForm ticket={data} />}
        </Space>
      )}
    </Drawer>
  );
}
