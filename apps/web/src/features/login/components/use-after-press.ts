import { useEffect, useRef } from 'react';

/**
 * Runs a task at once, or, while the primary mouse button is held down, when it is released.
 *
 * A field's check on leaving it adds or removes its message, which moves every control below it.
 * When the field is left by pressing one of those controls (the get-code button, the submit button,
 * a link), the press moves focus and so runs the check: the control then moves away from under the
 * pointer before the button is released, and the browser sends no click. Run on release, the check
 * leaves the control in place for the whole press. A tap on a touch screen is covered too: the
 * browser moves focus on the mousedown it sends after the touch ends, and its mouseup follows.
 */
export function useAfterPress(): (task: () => void) => void {
  const pressed = useRef(false);
  const waiting = useRef<(() => void)[]>([]);

  useEffect(() => {
    const press = (event: MouseEvent) => {
      if (event.button === 0) pressed.current = true;
    };
    // A press that becomes a drag (of selected text) ends with dragend instead of mouseup.
    const release = () => {
      pressed.current = false;
      for (const task of waiting.current.splice(0)) task();
    };
    // Capture: the page's own handlers cannot hide the press or its release from the form.
    document.addEventListener('mousedown', press, true);
    document.addEventListener('mouseup', release, true);
    document.addEventListener('dragend', release, true);
    return () => {
      document.removeEventListener('mousedown', press, true);
      document.removeEventListener('mouseup', release, true);
      document.removeEventListener('dragend', release, true);
    };
  }, []);

  return (task) => {
    if (pressed.current) waiting.current.push(task);
    else task();
  };
}
