import { useCallback, useEffect, useRef, useState } from 'react';

/** Seconds left of a countdown started with start(seconds); 0 when idle. */
export function useCountdown(): { remaining: number; start: (seconds: number) => void; stop: () => void } {
  const [remaining, setRemaining] = useState(0);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  const stop = useCallback(() => {
    if (timer.current !== null) clearInterval(timer.current);
    timer.current = null;
    setRemaining(0);
  }, []);

  const start = useCallback((seconds: number) => {
    if (timer.current !== null) clearInterval(timer.current);
    setRemaining(seconds);
    timer.current = setInterval(() => {
      setRemaining((left) => {
        if (left > 1) return left - 1;
        if (timer.current !== null) clearInterval(timer.current);
        timer.current = null;
        return 0;
      });
    }, 1000);
  }, []);

  useEffect(
    () => () => {
      if (timer.current !== null) clearInterval(timer.current);
    },
    [],
  );

  return { remaining, start, stop };
}
