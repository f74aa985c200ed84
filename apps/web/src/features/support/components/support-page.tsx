import { PlusOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Empty, Modal, Tag } from 'antd';
import './support.css';
import { formatDateTime } from '@skyway/shared/dates';
import { type ComponentType, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useTickets } from '../api/tickets.ts';
import { TicketForm } from './ticket-form.tsx';
import { TicketThreadView } from './ticket-thread.tsx';

/**
 * The console's Support page: the account's tickets, a new one, and the thread of the one chosen.
 * `suggestions` lists what may answer a new ticket's subject before it is sent (the app passes the
 * help center's).
 */
export function SupportPage({ suggestions }: { suggestions?: ComponentType<{ text: string }> }) {
  const { t } = useTranslation('support');
  const [params, setParams] = useSearchParams();
  const [composing, setComposing] = useState(false);
  const tickets = useTickets();
  const chosen = params.get('ticket');
  const show = (id: string) => setParams({ ticket: id });

  return (
    <div className="support-page">
      <Card
        title={t('title')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setComposing(true)}>
            {t('new')}
          </Button>
        }
      >
        {tickets.data && tickets.data.list.length === 0 && <Empty description={t('empty')} />}
        <ul className="support-page__list">
          {(tickets.data?.list ?? []).map((ticket) => (
            <li key={ticket.id}>
              <Button type="text" block onClick={() => show(ticket.id)} className="support-page__item">
                <Badge dot={ticket.unread} offset={[6, 0]}>
                  <strong>{ticket.subject}</strong>
                </Badge>
                <span>
                  {t(`category.${ticket.category}`)} · {formatDateTime(ticket.last_message_at)}
                </span>
                <Tag>{t(`state.${ticket.state}`)}</Tag>
              </Button>
            </li>
          ))}
        </ul>
      </Card>
      {chosen && (
        <Card style={{ marginTop: 16 }}>
          <TicketThreadView key={chosen} id={chosen} />
        </Card>
      )}
      <Modal
        open={composing}
        title={t('new')}
        footer={null}
        onCancel={() => setComposing(false)}
        destroyOnHidden
      >
        <TicketForm
          suggestions={suggestions}
          onOpened={(thread) => {
            setComposing(false);
            show(thread.id);
          }}
        />
      </Modal>
    </div>
  );
}
