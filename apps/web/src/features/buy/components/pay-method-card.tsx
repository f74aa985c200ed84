import { AppleOutlined } from '@ant-design/icons';
import { Alert, Card, Radio } from 'antd';
import { PAY_METHODS, type PayMethod, type PayOption } from '@skyway/shared/plans';
import { useTranslation } from 'react-i18next';
import { PayMethodName } from './pay-method-name.tsx';

interface Props {
  /** Every way to pay (`/web/plan/list`): the site's own provider first, then the gateways by position. */
  options: readonly PayOption[];
  value: PayOption | undefined;
  onChange: (option: PayOption) => void;
  loading: boolean;
}

/** The key of a way to pay: its method and who serves it. */
export const optionKey = (option: PayOption) => `${option.pay_method}:${option.gateway_id ?? 'own'}`;

/** The methods there are, in the order the buy page offers them. */
export const methodsOf = (options: readonly PayOption[]): PayMethod[] =>
  PAY_METHODS.filter((method) => options.some((option) => option.pay_method === method));

/** `1.5` from 150 basis points. */
const percent = (bps: number) => String(bps / 100);

/**
 * One choice per method, each with its mark and name; choosing one picks the first that serves it,
 * and when several do (the site's own checkout, gateways) the buyer may pick another by name, each
 * with its fee. The app-store subscription is listed too (spec: the payment methods include it),
 * disabled, because it is bought in the mobile app.
 */
export function PayMethodCard({ options, value, onChange, loading }: Props) {
  const { t } = useTranslation('buy');
  const methods = methodsOf(options);
  const serving = options.filter((option) => option.pay_method === value?.pay_method);
  const nameOf = (option: PayOption) => option.name ?? t('payment.ownProvider');
  const feeOf = (option: PayOption) =>
    option.fee_bps > 0 ? t('payment.fee', { rate: percent(option.fee_bps) }) : null;
  const single = serving.length === 1 ? serving[0] : undefined;
  return (
    <Card title={<h2 id="buy-payment-title">{t('payment.title')}</h2>} loading={loading}>
      <Radio.Group
        className="pay-methods"
        aria-labelledby="buy-payment-title"
        value={value?.pay_method}
        orientation="vertical"
        onChange={(event) => {
          const first = options.find((option) => option.pay_method === event.target.value);
          if (first) onChange(first);
        }}
      >
        {methods.map((method) => (
          <Radio key={method} value={method} className="pay-method">
            <PayMethodName method={method} />
            <span className="pay-method__hint">{t(`payment.methods.${method}.hint`)}</span>
            {single?.pay_method === method && single.gateway_id !== null && (
              <span className="pay-method__hint" data-testid="pay-method-gateway">
                {[nameOf(single), feeOf(single)].filter(Boolean).join(' · ')}
              </span>
            )}
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
      {serving.length > 1 && value && (
        <div className="pay-gateways">
          <span id="buy-gateway-title" className="buy-field__label">
            {t('payment.through')}
          </span>
          <Radio.Group
            aria-labelledby="buy-gateway-title"
            value={optionKey(value)}
            onChange={(event) => {
              const chosen = serving.find((option) => optionKey(option) === event.target.value);
              if (chosen) onChange(chosen);
            }}
          >
            {serving.map((option) => (
              <Radio key={optionKey(option)} value={optionKey(option)}>
                {[nameOf(option), feeOf(option)].filter(Boolean).join(' · ')}
              </Radio>
            ))}
          </Radio.Group>
        </div>
      )}
      {value?.pay_method === 'usdt' && (
        <Alert className="pay-gateways__note" type="info" showIcon title={t('payment.usdtNote')} />
      )}
    </Card>
  );
}
