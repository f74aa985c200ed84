import { ShoppingCartOutlined } from '@ant-design/icons';
import { Card, Empty } from 'antd';
import { LinkButton } from './link-button.tsx';

/** A console page with nothing to show until the customer buys: says why, and leads to the buy page. */
export function BuyFirst({ description, buy }: { description: string; buy: string }) {
  return (
    <Card>
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description}>
        <LinkButton type="primary" icon={<ShoppingCartOutlined />} to="/buy">
          {buy}
        </LinkButton>
      </Empty>
    </Card>
  );
}
