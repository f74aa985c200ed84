import { ShoppingCartOutlined } from '@ant-design/icons';
import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/page-meta.ts';

/** Placeholder until the plans and checkout arrive (a later issue). */
export function BuyPage() {
  const { t } = useTranslation('buy');
  usePageMeta(t('title'));
  return (
    <Card title={t('title')}>
      <Empty
        image={<ShoppingCartOutlined style={{ fontSize: 48, color: '#94a3b8' }} />}
        description={t('pending')}
      />
    </Card>
  );
}
