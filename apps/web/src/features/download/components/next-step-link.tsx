import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The download page's next step: register when signed out, the console when signed in. */
export function NextStepLink({ signedIn, className }: { signedIn: boolean; className: string }) {
  const { t } = useTranslation('download');
  return signedIn ? (
    <Link to="/buy" className={className}>
      {t('hero.buy')}
    </Link>
  ) : (
    <Link to="/login?formType=regist" className={className}>
      {t('hero.register')}
    </Link>
  );
}
