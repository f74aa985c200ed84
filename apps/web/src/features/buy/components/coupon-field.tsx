import { useState } from 'react';
import { Button, Input, Space, Typography } from 'antd';
import { formatYuan } from '@skyway/shared/money';
import type { CouponCheck } from '@skyway/shared/schemas/coupons';
import { useTranslation } from 'react-i18next';

export interface CouponFieldProps {
  /** The code applied, or null. */
  applied: string | null;
  /** The server's preview of the applied code, once it has answered yes. */
  check: CouponCheck | undefined;
  /** The server's refusal of the applied code, in the buyer's language. */
  refusal: string | null;
  checking: boolean;
  onApply(code: string): void;
  onRemove(): void;
}

/** The coupon (优惠码) field of the buy page: type a code, apply it, see what it takes off or why not. */
export function CouponField({ applied, check, refusal, checking, onApply, onRemove }: CouponFieldProps) {
  const { t } = useTranslation('buy');
  const [typed, setTyped] = useState(applied ?? '');
  const code = typed.trim();

  return (
    <div className="buy-coupon">
      <label htmlFor="buy-coupon" className="buy-field__label">
        {t('coupon.label')}
      </label>
      <Space.Compact className="buy-coupon__row">
        <Input
          id="buy-coupon"
          value={typed}
          maxLength={64}
          autoComplete="off"
          placeholder={t('coupon.placeholder')}
          aria-describedby="buy-coupon-status"
          aria-invalid={refusal !== null}
          onChange={(event) => setTyped(event.target.value)}
          onPressEnter={() => code && onApply(code)}
        />
        {/* Busy only for the code being checked: another code typed since can always be applied. */}
        <Button onClick={() => onApply(code)} disabled={!code} loading={checking && code === applied}>
          {t('coupon.apply')}
        </Button>
      </Space.Compact>
      <div id="buy-coupon-status" aria-live="polite" className="buy-coupon__status">
        {refusal !== null && <Typography.Text type="danger">{refusal}</Typography.Text>}
        {check && refusal === null && (
          <Typography.Text type="success">
            {t('coupon.applied', { code: check.code, amount: formatYuan(check.discount) })}{' '}
            <Button
              type="link"
              size="small"
              onClick={() => {
                setTyped('');
                onRemove();
              }}
            >
              {t('coupon.remove')}
            </Button>
          </Typography.Text>
        )}
      </div>
    </div>
  );
}
