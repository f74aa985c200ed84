import { act, render, screen } from '@testing-library/react';
import { createElement, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from './i18n.ts';
import { lazyPage, PAGE_LOAD_TIMEOUT_MS, PageLoadTimeoutError, withTimeout } from './lazy-page.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('withTimeout', () => {
  it('gives up on a page after 120 s (spec section 8)', async () => {
    vi.useFakeTimers();
    const pending = withTimeout(new Promise<never>(() => {}), PAGE_LOAD_TIMEOUT_MS);
    const outcome = expect(pending).rejects.toBeInstanceOf(PageLoadTimeoutError);
    await vi.advanceTimersByTimeAsync(PAGE_LOAD_TIMEOUT_MS - 1);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(PAGE_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('does not reject before the time is up', async () => {
    vi.useFakeTimers();
    let settled = false;
    withTimeout(new Promise<never>(() => {}), PAGE_LOAD_TIMEOUT_MS).catch(() => (settled = true));
    await vi.advanceTimersByTimeAsync(PAGE_LOAD_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });

  it('passes a loaded module through and clears its timer', async () => {
    vi.useFakeTimers();
    await expect(withTimeout(Promise.resolve('module'), PAGE_LOAD_TIMEOUT_MS)).resolves.toBe('module');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes a failed download through', async () => {
    await expect(withTimeout(Promise.reject(new Error('chunk 404')), 1000)).rejects.toThrow('chunk 404');
  });
});

describe('lazyPage', () => {
  it('downloads a preloaded page once, its texts with it, and renders it', async () => {
    const TitlePage = () => createElement('h1', null, i18n.t('login:login.title'));
    const load = vi.fn(() => Promise.resolve({ TitlePage }));
    const Page = lazyPage(load, 'TitlePage', 'login');
    Page.preload();
    Page.preload();
    await act(async () => {
      render(createElement(Suspense, { fallback: null }, createElement(Page)));
    });
    expect((await screen.findByRole('heading')).textContent).toBe('Log in');
    expect(load).toHaveBeenCalledTimes(1);
  });
});
