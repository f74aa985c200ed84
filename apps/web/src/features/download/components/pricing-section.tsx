import { formatYuan } from '@skyway/shared/money';
import type { Plan } from '@skyway/shared/plans';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatMinutes } from '../../../lib/durations.ts';
import type { Pricing } from '../api/pricing.ts';
import { NextStepLink } from './next-step-link.tsx';
import './pricing-section.css';

function PlanTile({ plan }: { plan: Plan }) {
  const { t } = useTranslation('download');
  return (
    <li className="plan-tile">
      <h3 className="plan-tile__name">{t(`pricing.periods.${plan.period}`)}</h3>
      <p className="plan-tile__price">
        <span className="plan-tile__amount">{formatYuan(plan.unit_price)}</span>{' '}
        <span className="plan-tile__unit">{t('pricing.perConnection')}</span>
      </p>
      <p className="plan-tile__length">{t('pricing.length', { months: plan.months, days: plan.days })}</p>
      {/* Longer plans compare by their price per month, the way buyers weigh them. */}
      {plan.months > 1 && (
        <p className="plan-tile__monthly">
          {t('pricing.perMonth', { price: formatYuan(Math.round(plan.unit_price / plan.months)) })}
        </p>
      )}
    </li>
  );
}

/**
 * Prices before registering (issue 12): the plans per connection, the free trial while it is open,
 * the payment methods accepted, and the next step.
 */
export function PricingSection({ pricing, signedIn }: { pricing: Pricing; signedIn: boolean }) {
  const { t } = useTranslation(['download', 'common']);
  const formatMinutes = useFormatMinutes();
  const titleId = useId();
  const methodsId = useId();
  return (
    <section className="section pricing" aria-labelledby={titleId}>
      <h2 id={titleId} className="section__title">
        {t('pricing.title')}
      </h2>
      <p className="section__lead">{t('pricing.lead', { max: pricing.maxConnections })}</p>
      <ul className="plan-grid">
        {pricing.plans.map((plan) => (
          <PlanTile key={plan.period} plan={plan} />
        ))}
      </ul>
      <div className="pricing__footer">
        <div className="pricing__facts">
          {pricing.trialMinutes !== null && (
            <p className="pricing__trial">
              {t('pricing.trial', { duration: formatMinutes(pricing.trialMinutes) })}
            </p>
          )}
          {pricing.payMethods.length > 0 && (
            <div className="pricing__methods">
              <span id={methodsId}>{t('pricing.payWith')}</span>
              <ul className="pay-chips" aria-labelledby={methodsId}>
                {pricing.payMethods.map((method) => (
                  <li key={method} className={`pay-chip pay-chip--${method}`}>
                    {t(`common:payMethods.${method}`)}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
        <NextStepLink signedIn={signedIn} className="btn btn--primary btn--large pricing__next" />
      </div>
    </section>
  );
}
