import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../../components/link-button.tsx';

const BUY_PATH = '/buy';

/** No orders yet: say so, and lead to the plans. */
export function NoOrders() {
  const { t } = useTranslation('orders');
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty.text')} data-testid="no-orders">
      <LinkButton type="primary" to={BUY_PATH}>
        {t('empty.action')}
      </LinkButton>
    </Empty>
  );
}
