import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** The order's total in yuan, once the plans have loaded. */
  total: string | null;
  /** The page's one Buy button. */
  children: ReactNode;
}

/**
 * On phones the summary ends far below the choices: this bar keeps the total and the Buy button at
 * the bottom of the screen, above the home indicator.
 */
export function BuyBar({ total, children }: Props) {
  const { t } = useTranslation('buy');
  return (
    <div className="buy-bar" data-testid="buy-bar">
      <div className="buy-bar__sum">
        <span className="buy-bar__label">{t('summary.total')}</span>
        <span className="buy-bar__total">{total}</span>
      </div>
      {children}
    </div>
  );
}
