import type { ReactNode } from 'react';
import type { PayMethod } from '@skyway/shared/plans';
import { useTranslation } from 'react-i18next';

const ALIPAY_BLUE = '#1677FF';
const WECHAT_PAY_GREEN = '#07C160';
const CARD_SLATE = '#334155';
const TETHER_GREEN = '#26A17B';

// Drawn here rather than downloaded: simple shapes in the brands' colours that a buyer recognises,
// with no asset to fetch and no trademark file to keep current.
const MARKS: Record<PayMethod, ReactNode> = {
  // A blue tile with a white 支.
  alipay: (
    <>
      <rect width="24" height="24" rx="5" fill={ALIPAY_BLUE} />
      <path
        d="M5.5 7h13M12 3.5v6.7M7.5 12h8.5c-1.5 3.6-4.8 6.2-10 7.5M9.5 14.5c2.2 2.6 5.3 4.4 9 5.3"
        fill="none"
        stroke="#fff"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </>
  ),
  // A green tile with a white tick.
  wechat_pay: (
    <>
      <rect width="24" height="24" rx="5" fill={WECHAT_PAY_GREEN} />
      <path
        d="M6.2 12.6l3.9 3.8 7.7-8"
        fill="none"
        stroke="#fff"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </>
  ),
  // A green tile with a white T, as Tether's mark.
  usdt: (
    <>
      <rect width="24" height="24" rx="5" fill={TETHER_GREEN} />
      <path
        d="M6 7h12M12 7v11M7.5 11.5c1.2.8 2.7 1.2 4.5 1.2s3.3-.4 4.5-1.2"
        fill="none"
        stroke="#fff"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </>
  ),
  // A bank card with its stripe and number.
  card: (
    <>
      <rect x="1.5" y="4.5" width="21" height="15" rx="2.5" fill={CARD_SLATE} />
      <rect x="1.5" y="8" width="21" height="2.6" fill="#fff" fillOpacity="0.85" />
      <rect x="4.5" y="14.2" width="7" height="1.8" rx="0.9" fill="#fff" fillOpacity="0.85" />
    </>
  ),
};

/** The payment method's mark; decorative, as its name is always written next to it. */
function PayMethodMark({ method }: { method: PayMethod }) {
  return (
    <svg
      className="pay-method-name__mark"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      aria-hidden="true"
      focusable="false"
      data-method={method}
    >
      {MARKS[method]}
    </svg>
  );
}

/** A payment method as the buyer knows it: its mark, then its name. */
export function PayMethodName({ method }: { method: PayMethod }) {
  const { t } = useTranslation('common');
  return (
    <span className="pay-method-name">
      <PayMethodMark method={method} />
      {t(`payMethods.${method}`)}
    </span>
  );
}
