import { useState } from 'react';
import { PaperClipOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Form, Input, Space, Tag, Typography } from 'antd';
import { ApiError } from '@skyway/shared/api-error';
import { formatDateTime } from '@skyway/shared/dates';
import { TICKET_MESSAGE_MAX } from '@skyway/shared/tickets';
import { useTranslation } from 'react-i18next';
import {
  downloadAttachment,
  type TicketThread,
  useCloseTicket,
  useReplyTicket,
  useTicketThread,
} from '../api/tickets.ts';
import { useImagePicker } from './ticket-form.tsx';

function Message({ message }: { message: TicketThread['messages'][number] }) {
  const { t } = useTranslation('support');
  return (
    <Card
      size="small"
      className={`ticket-message ticket-message--${message.from}`}
      title={message.from === 'staff' ? t('thread.staff') : t('thread.you')}
      extra={formatDateTime(message.created_at)}
    >
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
        {message.body}
      </Typography.Paragraph>
      {message.attachments.map((attachment, index) => (
        <Button
          key={attachment.id}
          type="link"
          icon={<PaperClipOutlined />}
          onClick={() => void downloadAttachment(attachment)}
        >
          {t('thread.image', { number: index + 1 })}
        </Button>
      ))}
    </Card>
  );
}

function ReplyForm({ id }: { id: string }) {
  const { t } = useTranslation('support');
  const [form] = Form.useForm<{ message: string }>();
  const [failure, setFailure] = useState<string | null>(null);
  const images = useImagePicker();
  const reply = useReplyTicket(id);

  async function submit({ message }: { message: string }) {
    setFailure(null);
    try {
      await reply.mutateAsync({ message, images: await images.encoded() });
      form.resetFields();
      images.clear();
    } catch (error) {
      console.warn('Support: the reply was refused', error);
      setFailure(error instanceof ApiError ? error.message : String(error));
    }
  }

  return (
    <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
      <Form.Item
        name="message"
        label={t('thread.reply')}
        rules={[{ required: true, whitespace: true, message: t('form.messageRequired') }]}
      >
        <Input.TextArea rows={4} maxLength={TICKET_MESSAGE_MAX} />
      </Form.Item>
      <Form.Item>{images.picker}</Form.Item>
      {(images.problem ?? failure) && (
        <Alert type="error" showIcon title={images.problem ?? failure} role="alert" />
      )}
      <Button type="primary" htmlType="submit" loading={reply.isPending} style={{ marginTop: 16 }}>
        {t('thread.send')}
      </Button>
    </Form>
  );
}

/** A ticket's thread as the customer follows it, with the reply form and closing while it is open. */
export function TicketThreadView({ id }: { id: string }) {
  const { t } = useTranslation('support');
  const thread = useTicketThread(id);
  const close = useCloseTicket(id);
  if (!thread.data) return thread.isError ? <Empty description={t('thread.missing')} /> : null;
  const ticket = thread.data;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle">
      <Space wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {ticket.subject}
        </Typography.Title>
        <Tag>{t(`state.${ticket.state}`)}</Tag>
        <Tag>{t(`category.${ticket.category}`)}</Tag>
        <Tag>{t(`priority.${ticket.priority}`)}</Tag>
      </Space>
      {ticket.messages.map((message) => (
        <Message key={message.id} message={message} />
      ))}
      {ticket.state === 'closed' ? (
        <Alert type="info" title={t('thread.closed')} />
      ) : (
        <>
          <ReplyForm id={id} />
          <Button danger loading={close.isPending} onClick={() => close.mutate()}>
            {t('thread.close')}
          </Button>
        </>
      )}
    </Space>
  );
}
