import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { HTML_LANG, LANGUAGES, type Language } from '@skyway/shared/languages';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage } from '../lib/language.ts';

const SHORT_NAME: Record<Language, string> = { en: 'EN', zh: '简', tw: '繁' };

function GlobeIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm6.9 6h-3a15.7 15.7 0 0 0-1.3-3.9A8 8 0 0 1 18.9 8ZM12 4a13.6 13.6 0 0 1 1.9 4h-3.8A13.6 13.6 0 0 1 12 4ZM4.3 14a8 8 0 0 1 0-4h3.4a16.5 16.5 0 0 0 0 4H4.3Zm.8 2h3a15.7 15.7 0 0 0 1.3 3.9A8 8 0 0 1 5.1 16Zm3-8h-3a8 8 0 0 1 4.3-3.9A15.7 15.7 0 0 0 8.1 8ZM12 20a13.6 13.6 0 0 1-1.9-4h3.8A13.6 13.6 0 0 1 12 20Zm2.3-6H9.7a14.6 14.6 0 0 1 0-4h4.6a14.6 14.6 0 0 1 0 4Zm.3 5.9a15.7 15.7 0 0 0 1.3-3.9h3a8 8 0 0 1-4.3 3.9Zm1.7-5.9a16.5 16.5 0 0 0 0-4h3.4a8 8 0 0 1 0 4h-3.4Z"
      />
    </svg>
  );
}

/**
 * A menu button (WAI-ARIA pattern) without antd, so that the public pages need none: arrows move,
 * Escape and Tab close, the choice stores the language and reloads (spec section 4).
 */
export function LanguageMenu() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (!open) return;
    items.current[LANGUAGES.indexOf(language)]?.focus();
    const closeOnOutsidePress = (event: PointerEvent) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOnOutsidePress);
    return () => document.removeEventListener('pointerdown', closeOnOutsidePress);
  }, [open, language]);

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  function select(choice: Language) {
    if (choice === language) close(true);
    else chooseLanguage(choice);
  }

  function onButtonKeyDown(event: KeyboardEvent) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
    }
  }

  function onMenuKeyDown(event: KeyboardEvent) {
    const focused = items.current.findIndex((item) => item === document.activeElement);
    const count = LANGUAGES.length;
    const moves: Record<string, number> = {
      ArrowDown: (focused + 1) % count,
      ArrowUp: (focused - 1 + count) % count,
      Home: 0,
      End: count - 1,
    };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      items.current[target]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  }

  return (
    <div className="language-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="language-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        // The accessible name starts with the visible short name, so voice control can say what it sees.
        aria-label={`${SHORT_NAME[language]}, ${t('language.label')}: ${t(`language.${language}`)}`}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={onButtonKeyDown}
      >
        <GlobeIcon />
        <span aria-hidden="true">{SHORT_NAME[language]}</span>
      </button>
      {open && (
        <ul
          id={menuId}
          className="language-menu__list"
          role="menu"
          aria-label={t('language.label')}
          onKeyDown={onMenuKeyDown}
        >
          {LANGUAGES.map((choice, index) => (
            <li key={choice} role="none">
              <button
                ref={(element) => {
                  items.current[index] = element;
                }}
                type="button"
                role="menuitemradio"
                aria-checked={choice === language}
                lang={HTML_LANG[choice]}
                tabIndex={-1}
                className="language-menu__item"
                onClick={() => select(choice)}
              >
                {t(`language.${choice}`)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
