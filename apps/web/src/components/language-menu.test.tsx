import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const chooseLanguage = vi.fn();
vi.mock('../lib/language.ts', () => ({
  currentLanguage: () => 'en',
  chooseLanguage: (language: string) => chooseLanguage(language),
}));

const { LanguageMenu } = await import('./language-menu.tsx');

beforeEach(() => {
  chooseLanguage.mockClear();
});

describe('LanguageMenu', () => {
  it('opens from the keyboard on the current language and moves with the arrows', () => {
    render(<LanguageMenu />);
    const button = screen.getByRole('button', { name: 'EN, Language: English' });
    expect(button.getAttribute('aria-expanded')).toBe('false');

    fireEvent.keyDown(button, { key: 'ArrowDown' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const items = screen.getAllByRole('menuitemradio');
    expect(items.map((item) => item.textContent)).toEqual(['English', '简体中文', '繁體中文']);
    expect(document.activeElement).toBe(items[0]);
    expect(items[0]?.getAttribute('aria-checked')).toBe('true');

    fireEvent.keyDown(items[0] as HTMLElement, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(items[1] as HTMLElement, { key: 'ArrowUp' });
    fireEvent.keyDown(items[0] as HTMLElement, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[2]);
  });

  it('closes on Escape and gives focus back to the button', () => {
    render(<LanguageMenu />);
    const button = screen.getByRole('button', { name: 'EN, Language: English' });
    fireEvent.click(button);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('chooses another language, and only closes for the current one', () => {
    render(<LanguageMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'EN, Language: English' }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'English' }));
    expect(chooseLanguage).not.toHaveBeenCalled();
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'EN, Language: English' }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: '繁體中文' }));
    expect(chooseLanguage).toHaveBeenCalledWith('tw');
  });
});
