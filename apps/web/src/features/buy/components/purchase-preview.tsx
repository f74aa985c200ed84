import type { ReactNode } from 'react';
import { Descriptions, type DescriptionsProps } from 'antd';
import { applyPurchase, settleEntitlement, type Entitlement } from '@skyway/shared/plans';
import { formatDateTime } from '@skyway/shared/dates';
import { Trans, useTranslation } from 'react-i18next';
import { useNowSeconds } from '../../../lib/use-now-seconds.ts';

/** The dates move with the clock; a minute's precision would do, ten seconds costs nothing. */
const TICK_MS = 10_000;

interface Props {
  entitlement: Entitlement;
  days: number;
  connections: number;
}

const change = (from: string | number, to: string | number) => `${from} → ${to}`;

/** A date and time kept on one line: a narrow screen may break before or after it, never inside. */
const DateText = ({ children }: { children?: ReactNode }) => (
  <span className="buy-preview__date">{children}</span>
);

/** The place of `<date>…</date>` in a translation. */
const DATE_TAG = { date: <DateText /> };

/** "from → to" of two dates, which may break at the arrow only. */
const dateChange = (from: number, to: number) => (
  <>
    <DateText>{formatDateTime(from)}</DateText> → <DateText>{formatDateTime(to)}</DateText>
  </>
);

/** What buying `days` at `connections` does to the account now, by the same arithmetic as the server. */
export function PurchasePreview({ entitlement, days, connections }: Props) {
  const { t } = useTranslation('buy');
  const now = useNowSeconds(TICK_MS);
  const current = settleEntitlement(entitlement, now);
  const { effect, after } = applyPurchase(entitlement, { days, connections }, now);
  const expiry = dateChange(current.expireAt, after.expireAt);
  // The same size as now while a downgrade is pending counts as an upgrade: it drops the downgrade.
  const keeps = effect === 'upgrade' && after.connections === current.connections;

  let items: DescriptionsProps['items'];
  if (effect === 'start') {
    items = [
      { key: 'connections', label: t('preview.connections'), children: after.connections },
      {
        key: 'until',
        label: t('preview.accessUntil'),
        children: <DateText>{formatDateTime(after.expireAt)}</DateText>,
      },
    ];
  } else if (effect === 'extend' || keeps) {
    items = [
      { key: 'connections', label: t('preview.connections'), children: after.connections },
      { key: 'expiry', label: t('preview.expiry'), children: expiry },
    ];
  } else if (effect === 'upgrade') {
    items = [
      {
        key: 'connections',
        label: t('preview.connections'),
        children: change(current.connections, after.connections),
      },
      { key: 'expiry', label: t('preview.expiry'), children: expiry },
    ];
  } else {
    const date = formatDateTime(after.pendingFrom);
    items = [
      {
        key: 'until',
        label: <Trans t={t} i18nKey="preview.connectionsUntil" values={{ date }} components={DATE_TAG} />,
        children: after.connections,
      },
      {
        key: 'from',
        label: <Trans t={t} i18nKey="preview.connectionsFrom" values={{ date }} components={DATE_TAG} />,
        children: after.pendingConnections,
      },
      { key: 'expiry', label: t('preview.expiry'), children: expiry },
    ];
  }

  return (
    <section className="buy-preview" aria-labelledby="buy-preview-title" data-effect={effect}>
      <h3 id="buy-preview-title" className="buy-preview__title">
        {t('preview.title')}
      </h3>
      <p className="buy-preview__effect">
        <Trans
          t={t}
          i18nKey={`preview.effects.${keeps ? 'keep' : effect}`}
          values={{ date: formatDateTime(after.pendingFrom) }}
          components={DATE_TAG}
        />
      </p>
      <Descriptions column={1} size="small" colon={false} items={items} />
    </section>
  );
}
