import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

const MINUTES_PER_HOUR = 60;
const MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR;

/** Minutes split as people count time: whole days, then hours, then minutes; zero parts left out. */
export function splitMinutes(total: number): { days: number; hours: number; minutes: number } {
  const minutes = Math.max(0, Math.round(total));
  return {
    days: Math.floor(minutes / MINUTES_PER_DAY),
    hours: Math.floor((minutes % MINUTES_PER_DAY) / MINUTES_PER_HOUR),
    minutes: minutes % MINUTES_PER_HOUR,
  };
}

/**
 * Formats a length given in minutes as days and hours in the page's language: 1440 → "1 day" /
 * "1 天", 2160 → "1 day 12 hours", 90 → "1 hour 30 minutes", 0 → "0 minutes".
 */
export function useFormatMinutes(): (minutes: number) => string {
  const { t } = useTranslation();
  return useCallback(
    (total: number) => {
      const { days, hours, minutes } = splitMinutes(total);
      const parts: string[] = [];
      if (days) parts.push(t('duration.days', { count: days }));
      if (hours) parts.push(t('duration.hours', { count: hours }));
      if (minutes || parts.length === 0) parts.push(t('duration.minutes', { count: minutes }));
      return parts.join(' ');
    },
    [t],
  );
}
