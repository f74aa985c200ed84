import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A page the member's role may not use (they reached it by its address): said plainly. */
export function Forbidden() {
  const { t } = useTranslation('common');
  return <Typography.Paragraph type="secondary">{t('forbidden')}</Typography.Paragraph>;
}
