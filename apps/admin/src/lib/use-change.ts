import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * What every change of a list screen does: call the server, say it is done (or why not), and show
 * the list under `queryKey` anew.
 */
export function useChange(queryKey: QueryKey) {
  const { t } = useTranslation('common');
  const { message } = App.useApp();
  const client = useQueryClient();
  return async (work: () => Promise<unknown>) => {
    try {
      await work();
      message.success(t('done'));
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    } finally {
      await client.invalidateQueries({ queryKey });
    }
  };
}
