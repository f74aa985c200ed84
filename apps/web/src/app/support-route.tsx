import { useTranslation } from 'react-i18next';
import { HelpSuggestions } from '../features/help/components/help-suggestions.tsx';
import { SupportPage } from '../features/support/components/support-page.tsx';

/** The help center's articles matching a new ticket's subject, before it is sent. */
function TicketSuggestions({ text }: { text: string }) {
  const { t } = useTranslation('support');
  return <HelpSuggestions text={text} heading={t('form.suggestions')} />;
}

/** The Support page, its ticket form suggesting help articles (features do not import each other). */
export function SupportRoute() {
  return <SupportPage suggestions={TicketSuggestions} />;
}
