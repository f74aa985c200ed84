import type { Order } from '@skyway/shared/plans';
import { OrderActions } from './order-actions.tsx';
import { useOrderFields, type OrderFieldKey } from './order-fields.tsx';

/** Below the status and the amount, the rest of an order in the table's order. */
const FACTS: OrderFieldKey[] = [
  'order_id',
  'months',
  'connections',
  'pay_method',
  'pay_time',
  'latest_pay_time',
];

interface Props {
  orders: Order[];
  onCancel: (order: Order) => Promise<void>;
}

/**
 * The orders on a phone: one card each, status and amount first, the other facts stacked below, so
 * nothing hides behind a sideways swipe.
 */
export function OrderCards({ orders, onCancel }: Props) {
  const fields = useOrderFields();
  return (
    <ul className="order-cards">
      {orders.map((order) => (
        <li key={order.order_id} className="order-card">
          <div className="order-card__head">
            {fields.status.render(order)}
            <span className="order-card__amount">{fields.amount.render(order)}</span>
          </div>
          <dl className="order-card__facts">
            {FACTS.map((key) => (
              <div key={key}>
                <dt>{fields[key].label}</dt>
                <dd>{fields[key].render(order)}</dd>
              </div>
            ))}
          </dl>
          <OrderActions order={order} onCancel={onCancel} compact={false} />
        </li>
      ))}
    </ul>
  );
}
