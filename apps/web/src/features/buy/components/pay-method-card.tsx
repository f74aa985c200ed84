import { AppleOutlined } from '@ant-design/icons';
import { Card, Radio } from 'antd';
import type { PayMethod } from '@skyway/shared/plans';
import { useTranslation } from 'react-i18next';
import { PayMethodName } from './pay-method-name.tsx';

interface Props {
  /** The methods the operator enabled, in the order to offer them. */
  methods: readonly PayMethod[];
  value: PayMethod | undefined;
  onChange: (method: PayMethod) => void;
  loading: boolean;
}

/**
 * One choice per enabled method, each with its mark and name; the app-store subscription is listed
 * too (spec: the payment methods include it), disabled, because it is bought in the mobile app.
 */
export function PayMethodCard({ methods, value, onChange, loading }: Props) {
  const { t } = useTranslation('buy');
  return (
    <Card title={<h2 id="buy-payment-title">{t('payment.title')}</h2>} loading={loading}>
      <Radio.Group
        className="pay-methods"
        aria-labelledby="buy-payment-title"
        value={value}
        orientation="vertical"
        onChange={(event) => onChange(event.target.value as PayMethod)}
      >
        {methods.map((method) => (
          <Radio key={method} value={method} className="pay-method">
            <PayMethodName method={method} />
            <span className="pay-method__hint">{t(`payment.methods.${method}.hint`)}</span>
          </Radio>
        ))}
        <Radio value="app_store" disabled className="pay-method">
          <span className="pay-method-name">
            <AppleOutlined className="pay-method-name__mark" aria-hidden="true" />
            {t('payment.appStore')}
          </span>
          <span className="pay-method__hint">{t('payment.appStoreHint')}</span>
        </Radio>
      </Radio.Group>
    </Card>
  );
}
